import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import {
  moduleFiltersSchema,
  moduleNameSchema,
  paraminfoInputSchema,
  validateInputSchema,
} from '../../../shared/catalogue-schema.js';
import type { CatalogueService } from '../../catalogue/catalogue-service.js';
import { publicProcedure, router } from './trpc.js';

/**
 * The catalogue as tRPC procedures, typed by the shared schemas; each is one service call.
 * The service is fetched per call so the router can be built before the service exists.
 */
export function createCatalogueRouter(service: () => CatalogueService) {
  return router({
    list: publicProcedure.input(moduleFiltersSchema.optional()).query(({ input }) => service().listModules(input ?? {})),
    get: publicProcedure.input(z.strictObject({ name: moduleNameSchema })).query(({ input }) => {
      const module = service().getModule(input.name);
      if (!module) throw new TRPCError({ code: 'NOT_FOUND', message: `There is no query module named "${input.name}".` });
      return module;
    }),
    paraminfo: publicProcedure.input(paraminfoInputSchema).query(({ input }) => service().paraminfo(input)),
    validate: publicProcedure.input(validateInputSchema).query(({ input }) => service().validate(input)),
  });
}
