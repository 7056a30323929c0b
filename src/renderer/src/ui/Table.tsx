import type { ReactNode } from 'react';
import './Table.css';

interface Props {
  /** The table's accessible name. */
  label: string;
  columns: ReactNode[];
  /** The rows; a row's last cell holds its actions, under a column named only for screen readers. */
  children: ReactNode;
}

/** A bordered table of records, one row each, scrolling sideways in a narrow window. */
export function Table({ label, columns, children }: Props) {
  return (
    <div className="ui-table-wrap">
      <table className="ui-table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col">
                {column}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
