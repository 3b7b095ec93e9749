"""Accounts: ``accounts``, ``account_names`` (unique name keys), ``server_keys``, and the
account of a rated game's seats and results (``seats.account_id``, ``results.account_id``).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("session_epoch", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "account_names",
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
    )
    op.create_index("ix_account_names_account_id", "account_names", ["account_id"])
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_seats_account", "accounts", ["account_id"], ["id"])
        batch.create_unique_constraint("uq_seats_table_account", ["table_id", "account_id"])
    with op.batch_alter_table("results") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_results_account", "accounts", ["account_id"], ["id"])
    op.create_index("ix_results_account_id", "results", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_results_account_id", "results")
    with op.batch_alter_table("results") as batch:
        batch.drop_constraint("fk_results_account", type_="foreignkey")
        batch.drop_column("account_id")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("uq_seats_table_account", type_="unique")
        batch.drop_constraint("fk_seats_account", type_="foreignkey")
        batch.drop_column("account_id")
    op.drop_table("server_keys")
    op.drop_index("ix_account_names_account_id", "account_names")
    op.drop_table("account_names")
    op.drop_table("accounts")
