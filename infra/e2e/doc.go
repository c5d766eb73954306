// Package e2e is the end-to-end suite of mcpsearch; it holds only tests.
// They build the real artifact and bundle and drive them as their users
// do: the Lambda runtime API emulator (infra/testenv/lambdaemu), the
// gateway against a fleet of upstreams (infra/testenv/fleet), clients
// other people wrote (infra/testenv/interop), the playground in a browser
// (infra/testenv/playground); and they check what no single package can:
// template.yaml and the Makefile, and the direction of the dependencies.
// Tests that need Node or Chromium skip (fail under CI=true) when these
// are missing, saying what installs them.
package e2e
