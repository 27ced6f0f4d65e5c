// madge ships no types; this is the part of its API the tests use (madge's README, "API").
declare module 'madge' {
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    detectiveOptions?: Record<string, unknown>;
  }
  interface MadgeResult {
    /** Each module's path and the modules it imports. */
    obj(): Record<string, string[]>;
    circular(): string[][];
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
