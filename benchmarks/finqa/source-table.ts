/** A table as read from a data source, before it is stored in SQLite. */

export interface SourceTable {
  /** The name the agent sees and passes to the tools. */
  name: string;
  /** Header cells; blank ones become `col_<i>`. */
  header: string[];
  /** Data rows of raw cells, each as long as the header (shorter rows are padded with NULL). */
  rows: unknown[][];
  /** Shown by get_table_info: a description, the report text around the table... */
  metadata: Record<string, string>;
}
