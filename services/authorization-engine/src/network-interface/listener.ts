/**
 * The TCP side: each connection carries many messages at once, each framed by its 2-byte length. Every message is
 * answered as soon as its answer is known, in whatever order (the network matches answers on STAN and RRN); a
 * message that cannot even be read is answered 30 when its MTI can be, and dropped (logged) when not.
 */
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import type { Logger } from "pino";
import { INTERFACE_RESPONSE_CODES } from "../domain/network-response-codes";
import { answerTo } from "./answers";
import { createFrameReader, frame } from "./iso8583/framing";
import { Iso8583Error, pack, unpack, type IsoMessage } from "./iso8583/packer";
import { answerMtiOf } from "./messages";

/** Messages under way on one connection at most; past it a request is answered 91 at once. */
export const MAX_IN_FLIGHT_PER_CONNECTION = 4_096;

export interface ListenerOptions {
  host: string;
  port: number;
  logger: Logger;
  answer(message: IsoMessage, receivedAt: number): Promise<IsoMessage | undefined>;
  /** Called with each answer sent: its MTI, response code and how long it took. */
  onAnswered?(mti: string, code: string, ms: number): void;
}

export interface Listener {
  address(): AddressInfo;
  /** Stops accepting, lets the messages under way be answered (for `graceMs` at most), then closes every connection. */
  close(graceMs: number): Promise<void>;
}

const codeOf = (message: IsoMessage) => String(message.fields[39] ?? "");

/** The answer to bytes that are not a message: 30 with what could be read of it, when that names a request. */
function formatErrorAnswer(error: Iso8583Error): IsoMessage | undefined {
  const mti = error.partial?.mti;
  if (!mti || answerMtiOf(mti) === undefined) return undefined;
  return answerTo({ mti, fields: error.partial?.fields ?? {} }, { code: INTERFACE_RESPONSE_CODES["format-error"] });
}

function serveConnection(socket: Socket, opts: ListenerOptions, track: (work: Promise<void>) => void) {
  const peer = `${socket.remoteAddress}:${socket.remotePort}`;
  const log = opts.logger.child({ peer });
  const reader = createFrameReader();
  let inFlight = 0;
  socket.setNoDelay(true);
  socket.setKeepAlive(true, 30_000);
  log.info("network connection opened");

  const send = (answer: IsoMessage, receivedAt: number) => {
    if (socket.destroyed) return;
    socket.write(frame(pack(answer)));
    opts.onAnswered?.(answer.mti, codeOf(answer), Date.now() - receivedAt);
  };

  const handle = async (bytes: Buffer, receivedAt: number) => {
    let message: IsoMessage;
    try {
      message = unpack(bytes);
    } catch (error) {
      const answer = error instanceof Iso8583Error ? formatErrorAnswer(error) : undefined;
      log.warn({ field: (error as Iso8583Error).field, why: (error as Error).message }, "unreadable network message");
      if (answer) send(answer, receivedAt);
      return;
    }
    if (inFlight > MAX_IN_FLIGHT_PER_CONNECTION && answerMtiOf(message.mti) !== undefined) {
      send(answerTo(message, { code: INTERFACE_RESPONSE_CODES["issuer-unavailable"] }), receivedAt);
      return;
    }
    const answer = await opts.answer(message, receivedAt);
    if (answer) send(answer, receivedAt);
  };

  socket.on("data", (chunk: Buffer) => {
    const receivedAt = Date.now();
    for (const bytes of reader.push(chunk)) {
      inFlight += 1;
      track(
        handle(bytes, receivedAt)
          .catch((error: unknown) => log.error({ err: error }, "network message not answered"))
          .finally(() => (inFlight -= 1)),
      );
    }
  });
  socket.on("error", (error) => log.warn({ err: error }, "network connection error"));
  socket.on("close", () => log.info({ inFlight }, "network connection closed"));
}

export function listen(opts: ListenerOptions): Promise<Listener> {
  const sockets = new Set<Socket>();
  const underWay = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    underWay.add(work);
    void work.finally(() => underWay.delete(work));
  };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    serveConnection(socket, opts, track);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve({
        address: () => server.address() as AddressInfo,
        async close(graceMs) {
          const closed = new Promise<void>((done) => server.close(() => done()));
          const grace = new Promise<void>((done) => setTimeout(done, graceMs).unref());
          await Promise.race([Promise.all([...underWay]), grace]);
          for (const socket of sockets) socket.destroy();
          await closed;
        },
      });
    });
  });
}
