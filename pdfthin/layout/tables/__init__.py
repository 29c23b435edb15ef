"""Tables: ruled grids and aligned columns, found before reading order so a table's columns are
never taken for text columns."""
