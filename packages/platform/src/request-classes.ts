import { createServer, IncomingMessage, ServerResponse, type Server } from "node:http";
import express, { type Express, type NextFunction, type Request, type Response } from "express";

/**
 * Express gives a request its methods by changing the prototypes of Node's request and response on every request
 * (`Object.setPrototypeOf` in `app.handle`, once more for each app a request enters). V8 then keeps those objects
 * through young-generation collections: under a list flood each scavenge copied and promoted ~2.6 MB, 5–10 ms pauses,
 * where a request whose objects are born with their final prototype dies young (bench/README.md, twenty-fourth
 * session; expressjs/express#5998 proposes the same). So our servers make requests and responses of these
 * classes, which inherit express's request and response from birth, and our apps' handle gives them its `app` as an
 * own property instead of swapping their prototype.
 */
export class AppRequest extends IncomingMessage {}
export class AppResponse<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {}
Object.setPrototypeOf(AppRequest.prototype, express.request);
Object.setPrototypeOf(AppResponse.prototype, express.response);

/** An HTTP server for the app whose requests and responses are born with express's prototypes. */
export function createAppServer(app: Express): Server {
  return createServer({ IncomingMessage: AppRequest, ServerResponse: AppResponse }, app);
}

type Handle = (req: Request, res: Response, done?: NextFunction) => void;
/** What express's types leave out: the app's and its router's dispatch. */
interface HandlingApp {
  handle: Handle;
  router: { handle: Handle };
}

/**
 * The app's handle without the prototype swap for requests made by createAppServer (also when the all-in-one's gateway
 * hands one to a service's app); any other request or response (a test's own server) goes through express's handle.
 */
export function handleWithoutPrototypeSwap(app: Express): void {
  const handled = app as unknown as HandlingApp;
  const expressHandle = handled.handle.bind(app);
  handled.handle = (req, res, done) => {
    if (!(req instanceof AppRequest) || !(res instanceof AppResponse)) return expressHandle(req, res, done);
    if (app.enabled("x-powered-by")) res.setHeader("X-Powered-By", "Express");
    req.res = res;
    res.req = req;
    req.app = app;
    res.app = app;
    if (!res.locals) res.locals = Object.create(null) as Response["locals"];
    handled.router.handle(req, res, done ?? unhandled(res));
  };
}

/**
 * Where a request goes when no handler of the app answered it: createHttpApp's apps end with a 404 and an error
 * handler, so only an error thrown by the error handler itself gets here.
 */
function unhandled(res: Response) {
  return (err?: unknown) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const statusCode = err ? 500 : 404;
    const body = err
      ? { statusCode, code: "internal-error", message: "Internal server error" }
      : { statusCode, code: "not-found", message: "No route" };
    res.writeHead(statusCode, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
  };
}
