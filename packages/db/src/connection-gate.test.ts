import { describe, expect, it } from "vitest";
import { createConnectionGate } from "./connection-gate";

/** A source whose connections are numbered; `failNext` makes the next connect fail. */
function source() {
  let made = 0;
  let failNext = false;
  return {
    connect: async () => {
      if (failNext) {
        failNext = false;
        throw new Error("the server is away");
      }
      return ++made;
    },
    failNextConnect: () => void (failNext = true),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the connection gate", () => {
  it("hands out at most its places at once; the rest wait", async () => {
    const gate = createConnectionGate(source(), 2);
    const got: number[] = [];
    for (let i = 0; i < 3; i++) void gate.acquire().then((c) => got.push(c));
    await settle();
    expect(got).toEqual([1, 2]);
    expect(gate.waiting()).toEqual({ urgent: 0, ordinary: 1 });
    gate.release();
    await settle();
    expect(got).toEqual([1, 2, 3]);
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
      void gate.acquire(urgent).then(() => {
        order.push(name);
        gate.release();
      });
    expect(gate.waiting()).toEqual({ urgent: 2, ordinary: 2 });
    gate.release();
    for (let i = 0; i < 5; i++) await settle();
    expect(order).toEqual(["urgent 1", "urgent 2", "ordinary 1", "ordinary 2"]);
  });

  it("a failed connect rejects only its own request and frees the place for the next one", async () => {
    const connections = source();
    const gate = createConnectionGate(connections, 1);
    connections.failNextConnect();
    await expect(gate.acquire()).rejects.toThrow("the server is away");
    await expect(gate.acquire(true)).resolves.toBe(1);
    const waiting = gate.acquire();
    connections.failNextConnect();
    gate.release();
    await expect(waiting).rejects.toThrow("the server is away");
    await expect(gate.acquire()).resolves.toBe(2);
  });
});
