"""A placeholder package for the pre-commit hook `disclose-check`
(.pre-commit-hooks.yaml, `language: python`): pre-commit installs this
repository, which installs the pinned wheel, whose `disclose` the hook
runs. Its version is the workspace's (script/release-check holds them
equal)."""

from setuptools import setup

setup(
    name="disclose-pre-commit-placeholder",
    version="0.0.0",
    install_requires=["disclose-catalog==0.1.0"],
    py_modules=[],
)
