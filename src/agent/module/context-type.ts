/** A typed key for a service injected into modules through ModuleContext. */
export class ContextType<T> {
  declare readonly __type: T;
  private constructor(readonly name: string) {}

  static of<T>(name: string): ContextType<T> {
    return new ContextType<T>(name);
  }

  toString(): string {
    return this.name;
  }
}

/** A service a module asked for with `get` that the server does not provide: a wiring error, fatal at start. */
export class MissingServiceError extends Error {
  constructor(readonly service: string) {
    super(`service ${service} is not provided`);
    this.name = "MissingServiceError";
  }
}

/** Services offered to modules at installation: the engine, its module registry and injected extensions. */
export interface ModuleContext<Engine = unknown, Modules = unknown> {
  engine(): Engine;
  modules(): Modules;
  get<T>(type: ContextType<T>): T;
  find<T>(type: ContextType<T>): T | undefined;
}

/** A ModuleContext over a map of services. */
export class ServiceContext<Engine, Modules> implements ModuleContext<Engine, Modules> {
  readonly #services = new Map<ContextType<unknown>, unknown>();

  constructor(
    private readonly engineRef: Engine,
    private readonly modulesRef: Modules,
  ) {}

  provide<T>(type: ContextType<T>, service: T): this {
    if (this.#services.has(type as ContextType<unknown>))
      throw new Error(`service ${type} is already provided`);
    this.#services.set(type as ContextType<unknown>, service);
    return this;
  }

  engine(): Engine {
    return this.engineRef;
  }

  modules(): Modules {
    return this.modulesRef;
  }

  get<T>(type: ContextType<T>): T {
    if (!this.#services.has(type as ContextType<unknown>)) throw new MissingServiceError(type.toString());
    return this.#services.get(type as ContextType<unknown>) as T;
  }

  find<T>(type: ContextType<T>): T | undefined {
    return this.#services.get(type as ContextType<unknown>) as T | undefined;
  }
}
