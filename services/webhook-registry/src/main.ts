import { runServiceProcess } from "@cardhold/platform";
import { createService, NAME } from "./service";

await runServiceProcess({ name: NAME, defaultPort: 8082, create: (deps) => createService(deps) });
