/**
 * Fastify's own validator compiler (Ajv, with Fastify's default options), each route's schema
 * compiled when the route first validates a request instead of at start-up.
 *
 * Fastify compiles every route's body, query and params schema while the server gets ready: with
 * ~200 declared endpoints that was ~22 % of a start's CPU, though a server answers few of them soon
 * after it starts (and a test server, or a process restarted by a crash test, often a handful).
 * The compiled function is Ajv's, used exactly as Fastify uses it (`schemaEnv` makes Fastify hand
 * it the parent object, so a root value can be coerced; `errors` is Ajv's last errors). That every
 * declared schema compiles is checked by tests (lazy-validators.test.ts), not at each start.
 */
import AjvCompiler, { type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler } from 'fastify';

type ValidatorFactory = BuildCompilerFromPool;
type RouteSchema = Parameters<FastifySchemaCompiler<unknown>>[0];
type Validator = ReturnType<FastifySchemaCompiler<unknown>>;
/** What Ajv compiles: called with the parent object when it has a `schemaEnv`, its errors on itself. */
type AjvValidator = ((data: unknown, dataCxt?: unknown) => ReturnType<Validator>) & { schemaEnv?: unknown; errors?: Validator['errors'] };
type Compile = (def: RouteSchema) => AjvValidator;

export interface LazyValidators {
  /** For Fastify's `schemaController.compilersFactory.buildValidator`. */
  buildValidator: ValidatorFactory;
  /** Route schemas compiled so far (a start compiles none). */
  compiled(): number;
  /** Route schemas registered (one per body, query or params schema of a route). */
  registered(): number;
  /** Compiles every registered schema now (tests: each declared schema compiles); throws what Ajv throws. */
  compileAll(): void;
}

export function lazyValidators(): LazyValidators {
  const fastifyDefault = AjvCompiler();
  let compiled = 0;
  const pending: Array<() => void> = [];
  const buildValidator = ((externalSchemas: Parameters<ValidatorFactory>[0], options: Parameters<ValidatorFactory>[1]) => {
    let compile: Compile | undefined;
    const compileNow: Compile = (def) => {
      compile ??= fastifyDefault(externalSchemas, options) as unknown as Compile;
      compiled++;
      return compile(def);
    };
    return (def: RouteSchema): Validator => {
      let fn: ReturnType<Compile> | undefined;
      pending.push(() => void (fn ??= compileNow(def)));
      const validator = ((data: unknown, dataCxt?: unknown) => (fn ??= compileNow(def))(data, dataCxt)) as Validator;
      Object.defineProperties(validator, {
        schemaEnv: { get: () => (fn ??= compileNow(def)).schemaEnv },
        errors: { get: () => fn?.errors ?? null },
      });
      return validator;
    };
  }) as unknown as ValidatorFactory;
  return { buildValidator, compiled: () => compiled, registered: () => pending.length, compileAll: () => pending.forEach((compile) => compile()) };
}
