"""Writes crates/todokit_dialects/fixtures/upstream/ anew from the packages
npm and PyPI serve, for the agents whose todo tools are read from a package
rather than run from their CLI (those are `make upstream`'s other half, the
todokit CLI's `agents::upstream` tests).

    python3 scripts/upstream/extract.py TODOKIT [--check] [PROFILE ...]

TODOKIT is the todokit binary: `todokit profiles --format json` says which
package and version each profile pins, and the archive's sha256 the pin
records must be what the registry serves. Each fixture holds the tools'
input schemas as the agent sends them and the answers of example calls,
made through the agent's own code where it can run here. With `--check`,
nothing is written and a fixture that would change fails the run.

Downloads and installs go to target/upstream/ (the registries only; the
machine's npm and pip, with their usual configuration).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import npm_tools

Json = dict[str, Any]
ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "crates" / "todokit_dialects" / "fixtures" / "upstream"
CACHE = ROOT / "target" / "upstream"
HERE = Path(__file__).resolve().parent


@dataclass
class Agent:
    """Where a profile's agent ships its tool."""

    profile: str
    registry: str
    package: str
    # The version, when the profile's pin is not this package (a retired
    # tool's last look, or a pin on the source the package is built from).
    version: str | None = None
    # PyPI packages the tool's code is read from too, at the version the
    # agent's own requirements pin (`name`), or at the agent's own version
    # (`name==`: released together, required without a version).
    companions: list[str] = field(default_factory=list)
    # The PyPI requirement whose pydantic runs the tool's models.
    pydantic_from: str | None = None
    # Installed with its dependencies instead of unpacked (its code runs).
    installed: bool = False
    # npm packages installed beside it (a runtime). `recorded`: the
    # dependencies, installed with it, whose versions the fixture names.
    beside: list[str] = field(default_factory=list)
    recorded: list[str] = field(default_factory=list)
    # The agent's own package (`name@version`) that bundles this one: it
    # must carry the tool read here verbatim (see `npm_tools.carries`).
    carried_by: str | None = None
    carried: list[str] = field(default_factory=list)


AGENTS = [
    Agent("kimi-cli", "pypi", "kimi-cli", companions=["kosong"], pydantic_from="kimi-cli"),
    Agent("vibe", "pypi", "mistral-vibe", pydantic_from="mistral-vibe"),
    Agent("hermes", "pypi", "hermes-agent"),
    Agent("deepagents", "pypi", "langchain", installed=True, recorded=["langchain-core"]),
    Agent("openhands", "pypi", "openhands-tools", companions=["openhands-sdk=="], pydantic_from="openhands-tools"),
    Agent("continue", "npm", "@continuedev/cli"),
    Agent("augment", "npm", "@augmentcode/auggie"),
    Agent("copilot-cli", "npm", "@github/copilot-linux-x64"),
    Agent("deepagents-js", "npm", "langchain", installed=True, recorded=["@langchain/core"]),
    Agent("omp", "npm", "@oh-my-pi/pi-coding-agent", installed=True, beside=["bun"], recorded=["bun", "@oh-my-pi/pi-ai"]),
    Agent("cline", "npm", "@cline/cli-linux-x64", version="3.0.65"),
    Agent(
        "cline-team",
        "npm",
        "@cline/core",
        installed=True,
        beside=["zod@4.4.3"],
        recorded=["zod"],
        carried_by="@cline/cli-linux-x64@3.0.65",
        carried=npm_tools.CLINE_TEAM_CARRIED,
    ),
]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(command: list[str], **options: Any) -> str:
    done = subprocess.run(command, capture_output=True, text=True, check=False, **options)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr.strip()}")
    return done.stdout


def pins(todokit: str) -> dict[str, Json]:
    profiles = json.loads(run([todokit, "profiles", "--format", "json"]))
    return {profile["name"]: profile for profile in profiles}


def wheel(name: str, version: str) -> Path:
    folder = CACHE / "pypi"
    found = list(folder.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    if not found:
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        command += ["--only-binary=:all:", "--python-version", "3.12", "-d", str(folder), f"{name}=={version}"]
        run(command)
        found = list(folder.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    if len(found) != 1:
        raise SystemExit(f"no single wheel of {name} {version} in {folder}")
    return found[0]


def requirement(archive: Path, name: str) -> str:
    """The requirement `archive`'s metadata states on `name` (`==1.2` or `>=1.2`)."""
    with zipfile.ZipFile(archive) as opened:
        metadata = next(n for n in opened.namelist() if n.endswith(".dist-info/METADATA"))
        text = opened.read(metadata).decode()
    pattern = rf"^Requires-Dist: {re.escape(name)}(?:\[[^\]]*\])?\s*\(?((?:==|>=)[^;,)\s]+)\)?\s*$"
    found = re.search(pattern, text, re.M)
    if found:
        return found.group(1)
    raise SystemExit(f"{archive.name} states no version of {name}")


def installed(target: Path, requirements: list[str]) -> Path:
    """`requirements` installed with their dependencies into `target`, once."""
    if not (target / ".done").exists():
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(target), *requirements]
        run(command)
        (target / ".done").write_text("\n".join(requirements))
    return target


def resolved(target: Path, name: str) -> str:
    """The version of `name` pip installed into `target`."""
    prefix = name.replace("-", "_") + "-"
    for info in target.glob(f"{prefix}*.dist-info"):
        return info.name.removeprefix(prefix).removesuffix(".dist-info")
    raise SystemExit(f"{name} is not installed in {target}")


def from_pypi(agent: Agent, version: str) -> tuple[list[Json], Json]:
    archive = wheel(agent.package, version)
    packages: list[Json] = [{"name": agent.package, "version": version, "sha256": sha256(archive)}]
    wheels = [archive]
    for companion in agent.companions:
        if companion.endswith("=="):
            companion, spec = companion[:-2], f"=={version}"
        else:
            spec = requirement(archive, companion)
        if not spec.startswith("=="):
            raise SystemExit(f"{agent.package} does not pin {companion} to one version")
        other = wheel(companion, spec[2:])
        wheels.append(other)
        packages.append({"name": companion, "version": spec[2:], "sha256": sha256(other)})
    path = []
    if agent.installed:
        target = installed(CACHE / "pypi-installed" / f"{agent.package}-{version}", [f"{agent.package}=={version}"])
        path.append(target)
        packages += [{"name": name, "version": resolved(target, name), "installed": True} for name in agent.recorded]
    if agent.pydantic_from is not None:
        source = next(w for w in wheels if w.name.startswith(agent.pydantic_from.replace("-", "_")))
        spec = requirement(source, "pydantic")
        target = installed(CACHE / "pydantic" / spec.strip("=>"), [f"pydantic{spec}"])
        path.append(target)
        packages.append({"name": "pydantic", "version": resolved(target, "pydantic"), "installed": True})
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in path)}
    command = [sys.executable, str(HERE / "pypi_tools.py"), agent.profile, *map(str, wheels)]
    return packages, json.loads(run(command, env=environment))


def packed(spec: str) -> tuple[Path, Path]:
    """The archive npm serves for `spec`, and the folder it is (or is to be)
    unpacked into, under target/upstream/npm."""
    folder = CACHE / "npm"
    folder.mkdir(parents=True, exist_ok=True)
    made = json.loads(run(["npm", "pack", "--json", "--pack-destination", str(folder), spec], cwd=folder))[0]
    archive = folder / made["filename"]
    return archive, folder / f"{made['filename']}.d"


def unpack(archive: Path, unpacked: Path) -> Path:
    if not unpacked.exists():
        with tarfile.open(archive) as tar:
            tar.extractall(unpacked, filter="data")
    return unpacked / "package"


def from_npm(agent: Agent, version: str) -> tuple[list[Json], Json]:
    archive, unpacked = packed(f"{agent.package}@{version}")
    packages: list[Json] = [{"name": agent.package, "version": version, "sha256": sha256(archive)}]
    if agent.installed:
        unpacked.mkdir(exist_ok=True)
        if not (unpacked / "node_modules" / agent.package).exists():
            command = ["npm", "install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error"]
            run([*command, str(archive), *agent.beside], cwd=unpacked)
        lock = json.loads((unpacked / "node_modules" / ".package-lock.json").read_text())
        for name in agent.recorded:
            version = lock["packages"][f"node_modules/{name}"]["version"]
            packages.append({"name": name, "version": version, "installed": True})
        found = npm_tools.EXTRACTORS[agent.profile](unpacked)
    else:
        found = npm_tools.EXTRACTORS[agent.profile](unpack(archive, unpacked))
    description = found.pop("description", None)
    if agent.carried_by is not None:
        name, _, carrier_version = agent.carried_by.rpartition("@")
        carrier, carrier_folder = packed(agent.carried_by)
        binaries = [p for p in (unpack(carrier, carrier_folder) / "bin").iterdir() if p.is_file()]
        if len(binaries) != 1 or description is None:
            raise SystemExit(f"{agent.carried_by}: not one binary to check, or no description read")
        npm_tools.carries(binaries[0], description, agent.carried)
        packages.append({"name": name, "version": carrier_version, "sha256": sha256(carrier), "carries": True})
    return packages, found


def fixture(agent: Agent, profile: Json) -> tuple[str, Json]:
    pin = profile["upstream"]["pin"]
    pinned = pin.get("kind") == "package" and pin.get("name") == agent.package
    version = agent.version or (pin["version"] if pinned else None)
    if version is None:
        raise SystemExit(f"{agent.profile} pins no {agent.registry} package {agent.package}")
    read = from_pypi if agent.registry == "pypi" else from_npm
    packages, found = read(agent, version)
    if pinned and packages[0]["sha256"] != pin["sha256"]:
        raise SystemExit(
            f"{agent.package} {version}: the registry serves sha256 {packages[0]['sha256']}, "
            f"the {agent.profile} profile pins {pin['sha256']}"
        )
    if agent.version is not None and agent.version not in (profile.get("retired_upstream_in") or ""):
        raise SystemExit(f"{agent.profile} is read at {agent.version}, which its profile does not name")
    return f"{agent.profile}@{version}.json", {"profile": agent.profile, "packages": packages, **found}


def main() -> int:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("todokit", help="the todokit binary")
    arguments.add_argument("--check", action="store_true", help="compare with the committed fixtures, write nothing")
    arguments.add_argument("profiles", nargs="*", help="only these profiles")
    options = arguments.parse_intermixed_args()
    known = pins(options.todokit)
    changed = []
    for agent in AGENTS:
        if options.profiles and agent.profile not in options.profiles:
            continue
        name, content = fixture(agent, known[agent.profile])
        text = json.dumps(content, indent=2, ensure_ascii=False) + "\n"
        path = FIXTURES / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            print(f"{name}: unchanged")
            continue
        changed.append(name)
        if not options.check:
            stale = [p for p in FIXTURES.glob(f"{agent.profile}@*.json") if p != path]
            for old in stale:
                old.unlink()
            path.write_text(text, encoding="utf-8")
        print(f"{name}: {'differs' if options.check else 'written'}")
    return 1 if options.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
