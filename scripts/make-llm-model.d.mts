export interface LlmPreset {
  hidden: number;
  layers: number;
  heads: number;
  kvHeads: number;
  ffn: number;
  vocab: number;
  merges: number;
  quant: 'f32' | 'q4_k_m';
}
export declare const PRESETS: Record<'test' | 'qwen2.5-0.5b' | 'qwen2.5-1.5b' | 'qwen2.5-3b', LlmPreset>;
export declare const CHAT_TEMPLATE: string;
export declare function makeLlmModel(
  out: string,
  opts?: { preset?: keyof typeof PRESETS; seed?: number; contextLength?: number },
): Promise<{ bytes: number; eos: number; vocab: number }>;
