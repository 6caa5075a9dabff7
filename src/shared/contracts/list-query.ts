/** The query of a paged, searchable list (contacts, users, tags, quick answers, …): 1-based `pageNumber`. */
export interface ListQuery {
  searchParam?: string;
  pageNumber?: number;
}
