export interface FolderJson {
  id: string;
  name: string;
  created_at: string;
  transcript_count?: number;
}
