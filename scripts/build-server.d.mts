export declare const SERVER_OUT: string;
export declare const SERVER_ENTRIES: Record<string, string>;
export declare function serverBuildIsStale(): boolean;
export declare function newestMtime(p: string): number;
export interface ServerMetafile {
  outputs: Record<
    string,
    { imports: { path: string; kind: string; external?: boolean }[]; entryPoint?: string }
  >;
}
export declare function buildServer(outdir?: string): Promise<ServerMetafile>;
