"""The creating address of a table, as a SHA-256 digest (``tables.creator``), so every server
process counts an address's tables against the same quotas.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("ix_tables_creator", "tables", ["creator"])


def downgrade() -> None:
    op.drop_index("ix_tables_creator", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator")
