// The functions the browser and Node entry points share, over the module's exports `wasm`;
// `ready()` throws when the module is not loaded yet.

export function helpers(wasm, ready = () => {}) {
  return {
    /** Reads a record file (bytes, or text) in any format the library reads. */
    readRecords(data) {
      ready();
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      return wasm.readRecords(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
    },
    /** Counts the leaf nodes of the legal-move tree (perft) of a FEN. */
    perft(fen, depth) {
      ready();
      const board = new wasm.Board(fen);
      try {
        return board.perft(depth);
      } finally {
        board.free();
      }
    },
  };
}
