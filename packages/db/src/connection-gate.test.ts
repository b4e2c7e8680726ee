import { describe, expect, it } from "vitest";
import { createConnectionGate } from "./connection-gate";

/** A source whose connections are numbered; `failNext` makes the next connect fail; `released` what came back. */
function source() {
  let made = 0;
  let failNext = false;
  const released: Array<{ connection: number; destroy: boolean }> = [];
  return {
    connect: async () => {
      if (failNext) {
        failNext = false;
        throw new Error("the server is away");
      }
      return ++made;
    },
    release: (connection: number, destroy: boolean) => void released.push({ connection, destroy }),
    failNextConnect: () => void (failNext = true),
    released,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the connection gate", () => {
  it("hands out at most its places at once; the rest wait, and a released connection goes straight to the next", async () => {
    const connections = source();
    const gate = createConnectionGate(connections, 2);
    const got: number[] = [];
    for (let i = 0; i < 3; i++) void gate.acquire().then((c) => got.push(c));
    await settle();
    expect(got).toEqual([1, 2]);
    expect(gate.waiting()).toEqual({ urgent: 0, ordinary: 1 });
    gate.release(1);
    await settle();
    expect(got).toEqual([1, 2, 1]);
    expect(connections.released).toEqual([]);
    gate.release(2);
    expect(connections.released).toEqual([{ connection: 2, destroy: false }]);
  });

  it("gives a freed place to urgent requests first, each queue in arrival order", async () => {
    const gate = createConnectionGate(source(), 1);
    const order: string[] = [];
    await gate.acquire();
    for (const [name, urgent] of [
      ["ordinary 1", false],
      ["urgent 1", true],
      ["ordinary 2", false],
      ["urgent 2", true],
    ] as const)
      void gate.acquire(urgent).then((connection) => {
        order.push(name);
        gate.release(connection);
      });
    expect(gate.waiting()).toEqual({ urgent: 2, ordinary: 2 });
    gate.release(1);
    for (let i = 0; i < 5; i++) await settle();
    expect(order).toEqual(["urgent 1", "urgent 2", "ordinary 1", "ordinary 2"]);
  });

  it("a broken connection is destroyed, and the next in line gets a new one", async () => {
    const connections = source();
    const gate = createConnectionGate(connections, 1);
    const first = await gate.acquire();
    const next = gate.acquire();
    gate.release(first, true);
    await expect(next).resolves.toBe(2);
    expect(connections.released).toEqual([{ connection: 1, destroy: true }]);
  });

  it("a failed connect rejects only its own request and frees the place for the next one", async () => {
    const connections = source();
    const gate = createConnectionGate(connections, 1);
    connections.failNextConnect();
    await expect(gate.acquire()).rejects.toThrow("the server is away");
    const held = await gate.acquire(true);
    expect(held).toBe(1);
    const waiting = gate.acquire();
    const after = gate.acquire();
    connections.failNextConnect();
    gate.release(held, true);
    await expect(waiting).rejects.toThrow("the server is away");
    await expect(after).resolves.toBe(2);
    expect(gate.waiting()).toEqual({ urgent: 0, ordinary: 0 });
  });
});
