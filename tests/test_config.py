from __future__ import annotations

from pathlib import Path

import pytest

from hermes_memory.config import RECALL_PRESETS, load_config
from hermes_memory.errors import ConfigError


def write_yaml(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.yaml").write_text(text, encoding="utf-8")


def test_defaults_follow_the_design(tmp_path: Path) -> None:
    cfg = load_config(tmp_path, env={})
    assert (
        cfg.recall.semantic_weight,
        cfg.recall.recency_weight,
        cfg.recall.importance_weight,
    ) == (0.5, 0.3, 0.2)
    assert cfg.recall.recency_half_life_days == 30
    assert cfg.db_path == tmp_path / "default" / "memory" / "tier2.db"
    assert cfg.vector_path == tmp_path / "default" / "memory" / "tier3"
    assert cfg.graph_path == tmp_path / "default" / "memory" / "graph"
    assert cfg.curated_dir == tmp_path / "memories"
    assert cfg.tier1.memory_char_limit == 2200 and cfg.tier1.user_char_limit == 1375
    assert cfg.tier2.max_facts == 100_000 and cfg.tier2.max_entities == 10_000
    assert cfg.tier3.chunk_size == 512 and cfg.tier3.chunk_overlap == 64
    assert cfg.cron.consolidate_schedule == "0 3 * * *"
    assert cfg.cron.embed_schedule == "*/5 * * * *"
    assert cfg.limits.fact_ttl_days == 365 and cfg.limits.max_embedding_queue == 1000


def test_hermes_home_from_environment_and_default(tmp_path: Path) -> None:
    assert load_config(env={"HERMES_HOME": str(tmp_path)}).hermes_home == tmp_path
    assert load_config(env={}).hermes_home == Path("~/.hermes").expanduser()


def test_precedence_defaults_yaml_env_overrides(tmp_path: Path) -> None:
    write_yaml(
        tmp_path,
        "memory:\n  recall:\n    semantic_weight: 0.6\n    recency_weight: 0.1\n  profile: work\n",
    )
    cfg = load_config(tmp_path, env={})
    assert cfg.recall.semantic_weight == 0.6 and cfg.recall.recency_weight == 0.1
    assert cfg.recall.importance_weight == 0.2  # untouched default
    assert cfg.profile == "work"
    env = {"HERMES_MEMORY_RECALL__SEMANTIC_WEIGHT": "0.7", "HERMES_MEMORY_PROFILE": "env"}
    cfg = load_config(tmp_path, env=env)
    assert cfg.recall.semantic_weight == 0.7 and cfg.recall.recency_weight == 0.1
    assert cfg.profile == "env"
    cfg = load_config(tmp_path, env=env, overrides={"recall": {"semantic_weight": 0.9}})
    assert cfg.recall.semantic_weight == 0.9
    assert load_config(tmp_path, "explicit", env=env).profile == "explicit"


def test_hermes_owned_keys_are_shared_not_rejected(tmp_path: Path) -> None:
    write_yaml(
        tmp_path,
        "memory:\n  provider: hermes_memory\n  memory_enabled: true\n"
        "  memory_char_limit: 3000\n  user_char_limit: 900\nmodel: x\n",
    )
    cfg = load_config(tmp_path, env={})
    assert cfg.tier1.memory_char_limit == 3000 and cfg.tier1.user_char_limit == 900


@pytest.mark.parametrize(
    ("yaml_text", "key"),
    [
        ("memory:\n  recall:\n    semantic_weight: -0.1\n", "recall.semantic_weight"),
        (
            "memory:\n  recall:\n    semantic_weight: 0\n    recency_weight: 0\n"
            "    importance_weight: 0\n",
            "recall",
        ),
        ("memory:\n  recall:\n    semantic_wieght: 0.5\n", "recall.semantic_wieght"),
        ("memory:\n  colour: blue\n", "colour"),
        ("memory:\n  cron:\n    prune_schedule: 'every tuesday'\n", "cron.prune_schedule"),
        ("memory:\n  cron:\n    prune_schedule: '61 * * * *'\n", "cron.prune_schedule"),
        ("memory:\n  recall:\n    recency_half_life_days: 0\n", "recall.recency_half_life_days"),
        ("memory:\n  tier3:\n    chunk_overlap: 600\n", "tier3"),
        ("memory:\n  profile: '../escape'\n", "profile"),
        ("memory:\n  recall:\n    preset: nonsense\n", "recall.preset"),
        ("memory: [1, 2]\n", "memory"),
        ("memory:\n  recall: {semantic_weight: [\n", "config.yaml"),
    ],
)
def test_invalid_values_name_the_key(tmp_path: Path, yaml_text: str, key: str) -> None:
    write_yaml(tmp_path, yaml_text)
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path, env={})
    assert info.value.key == key
    assert key in str(info.value)


def test_unknown_environment_variable_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path, env={"HERMES_MEMORY_RECALL__SEMANTIC_WIEGHT": "1"})
    assert info.value.key == "recall.semantic_wieght"


def test_named_presets(tmp_path: Path) -> None:
    cfg = load_config(tmp_path, env={}).with_recall_preset("similarity")
    assert cfg.recall.semantic_weight == 1.0 and cfg.recall.recency_weight == 0.0
    write_yaml(tmp_path, "memory:\n  recall:\n    preset: durable\n    recency_weight: 0.2\n")
    cfg = load_config(tmp_path, env={})
    assert cfg.recall.importance_weight == RECALL_PRESETS["durable"]["importance_weight"]
    assert cfg.recall.recency_weight == 0.2  # explicit value beats the preset
    with pytest.raises(ConfigError):
        cfg.with_recall_preset("nope")
