import fp from 'fastify-plugin';
import { Invalid } from '../errors.ts';
import { textProblem } from '../lib/text.ts';

/**
 * Before every route's schema: a call without a body is read as an empty one, so each field's own
 * message names what is missing; and one check for every JSON body, query and path: text no
 * column may hold is a 400.
 */
export const validationPlugin = fp(
  (app, _options, done) => {
    app.addHook('preValidation', (request, _reply, next) => {
      if (request.body == null && request.routeOptions.schema?.body) request.body = {};
      const problem =
        textProblem(request.params) ?? textProblem(request.query) ?? textProblem(request.body);
      next(problem ? new Invalid(problem) : undefined);
    });
    done();
  },
  { name: 'orbit-validation' },
);
