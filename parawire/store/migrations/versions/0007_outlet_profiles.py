"""Per-outlet statistics the crawler learns boilerplate lines and site names from.

Revision ID: 0007
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0005"
# Each table's key columns (after the outlet).
OUTLET_TABLES = {"outlet_pages": (), "outlet_lines": ("line_key",), "outlet_affixes": ("affix",)}


def upgrade() -> None:
    for table, key in OUTLET_TABLES.items():
        op.create_table(
            table,
            sa.Column("outlet", sa.String(255), primary_key=True),
            *(sa.Column(column, sa.Text, primary_key=True) for column in key),
            sa.Column("pages", sa.BigInteger, nullable=False),
        )


def downgrade() -> None:
    for table in OUTLET_TABLES:
        op.drop_table(table)
