/** Photo gallery (docs/product.md "Gallery", "Gallery manager", "Image viewer"; docs/decisions.md "Only the owner edits a gallery"). */

export interface GalleryOwner {
  _id: string;
  id: string;
  username: string;
  profileImage: string;
}

/** An image as the server sends it; the client still reads the alternative field names other servers send. */
export interface GalleryImage {
  _id: string;
  id: string;
  /** The display-size file's path under /uploads (also given as path, url and src). */
  filename: string;
  path: string;
  url: string;
  src: string;
  /** The small WebP the grids show. */
  thumbnailUrl: string;
  width: number;
  height: number;
  folder: string;
  caption: string;
  createdAt: string;
  /** Member ids who like or dislike it; a member is in at most one of the two. */
  likes: string[];
  dislikes: string[];
  user: GalleryOwner;
  owner: GalleryOwner;
}

export interface GalleryListResponse {
  images: GalleryImage[];
}

export interface GalleryFoldersResponse {
  folders: string[];
}

export const CAPTION_MAX = 500;
export const FOLDER_MAX = 40;

/** The PATCH body: a reaction (true/false, or the spec's arrays of ids), a caption, or a folder. */
export interface GalleryPatchBody {
  accountId?: string;
  likes?: boolean | string[];
  dislikes?: boolean | string[];
  caption?: string;
  folder?: string;
}

export interface GalleryReorderBody {
  accountId?: string;
  userId?: string;
  order: string[];
}

export interface GalleryImageDeleted {
  _id: string;
  ownerId: string;
}
