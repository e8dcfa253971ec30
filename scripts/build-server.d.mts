export declare const SERVER_OUT: string;
export declare const SERVER_ENTRIES: Record<string, string>;
export declare function serverBuildIsStale(): boolean;
export declare function buildServer(): Promise<void>;
