// Package recorder records rollouts on a real Kubernetes control plane
// (controlplane) with hollow nodes, from the console in tmux and from
// `rollscope record`, and replays them in the console.
package recorder

import (
	"testing"

	"rollscope/test/e2e/rollscopebin"
)

func TestMain(m *testing.M) { rollscopebin.Main(m) }
