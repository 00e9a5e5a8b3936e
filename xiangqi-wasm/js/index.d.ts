// Types of the xiangqi-wasm package (browser and Node builds share them).

export { Board, GameRecord, Move, Outcome, RecordFile, SearchOptions, SearchResult, Info, Score, levels, moveText, version } from './wasm/xiangqi_wasm.js';
import type { Board, SearchOptions, SearchResult, Info } from './wasm/xiangqi_wasm.js';

/** A refusal from the library, with the library's message. */
export class XiangqiError extends Error {
  /** What was wrong: `fen`, `notation`, `illegal`, `record`, `option` or `engine`. */
  kind: 'fen' | 'notation' | 'illegal' | 'record' | 'option' | 'engine';
  /** For an illegal move: the rule it breaks (`horse_leg`, `flying_general`, ...). */
  reason?: string;
  /** For a move of a list: its index. */
  index?: number;
}

/** Loads the WebAssembly module (browsers: fetches the .wasm beside the script). */
export function init(source?: string | URL | Response | BufferSource | WebAssembly.Module): Promise<void>;

/** Reads a record file in any format the library reads. */
export function readRecords(data: Uint8Array | ArrayBuffer | string): import('./wasm/xiangqi_wasm.js').RecordFile;

/** Leaf nodes of the legal-move tree of `fen` at `depth`. */
export function perft(fen: string, depth: number): number;

/** The position a search is for. */
export type SearchGame = Board | string | { fen?: string; moves?: string[] };

/** A running search: await it for the result, iterate it for the progress reports. */
export interface Search extends PromiseLike<SearchResult>, AsyncIterable<Info> {
  catch<T = never>(onError: (e: unknown) => T | PromiseLike<T>): Promise<SearchResult | T>;
  finally(f: () => void): Promise<SearchResult>;
}

/** The engine at full strength (or a level), searching in a worker. */
export class Engine {
  constructor();
  /** Searches; a new search stops the one running. */
  search(game: SearchGame, options?: SearchOptions): Search;
  /** Stops the running search; it resolves with the best line so far (`stopped: true`). */
  stop(): void;
  /** Forgets earlier searches (between unrelated games). */
  newGame(): void;
  /** Ends the worker. */
  quit(): void;
}
