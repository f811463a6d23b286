package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// Every list whose row a key acts on shows which row that is in plain text
// (NO_COLOR, a monochrome capture): exactly one line carries the marker,
// and moving the cursor moves it.
func TestEveryListMarksItsSelectedRowInPlainText(t *testing.T) {
	twoContainers := func() *fakeActions {
		acts := oneContainer()
		acts.containers = append(acts.containers, action.Container{Name: "sidecar", Image: "envoy:1.30"})
		return acts
	}
	twoDeployments := func() Source {
		src := midRollout()
		src.deployments = append(src.deployments, cluster.DeploymentSummary{Namespace: "shop", Name: "checkout", Replicas: 1})
		return src
	}
	cases := []struct {
		name   string
		model  func(t *testing.T) Model
		open   []tea.Msg
		marker string
	}{
		{"fleet", func(t *testing.T) Model { return newFleetModel(t, newFleetSource(), 120, 30, nil) }, nil, draw.Marker},
		{"replicasets", func(t *testing.T) Model { return newTestModel(t, midRollout(), nil, 80, 24) }, nil, draw.Marker},
		{"pods", func(t *testing.T) Model { return newTestModel(t, midRollout(), nil, 80, 24) }, []tea.Msg{press("tab")}, draw.Marker},
		{"nodes", func(t *testing.T) Model { return newTestModel(t, midRollout(), nil, 80, 24) }, toNodes, draw.Marker},
		{"history", func(t *testing.T) Model { return newTestModel(t, midRollout(), nil, 80, 24) }, []tea.Msg{press("shift+tab"), press("shift+tab"), press("k")}, draw.Marker},
		{"timeline", func(t *testing.T) Model { return newTestModel(t, midRollout(), nil, 80, 24) }, []tea.Msg{press("shift+tab"), press("k")}, draw.Marker},
		{"picker", func(t *testing.T) Model { return newTestModel(t, twoDeployments(), nil, 80, 24) }, []tea.Msg{press(":")}, draw.Marker},
		{"undo revisions", func(t *testing.T) Model { return newActionModel(t, oneContainer(), midRollout(), nil) }, []tea.Msg{press("u"), press("up")}, draw.Marker},
		{"containers", func(t *testing.T) Model { return newActionModel(t, twoContainers(), midRollout(), nil) }, []tea.Msg{press("i")}, draw.Marker},
		{"canary containers", func(t *testing.T) Model { return newActionModel(t, twoContainers(), finishedRollout(), nil) }, []tea.Msg{press("K")}, draw.Marker},
		{"statefulset revisions", func(t *testing.T) Model { return newRCModel(t, workloadFixture{midRollout()}, nil, 120, 40) }, typedOpen("sts db"), draw.Marker},
		{"daemonset revisions", func(t *testing.T) Model { return newRCModel(t, workloadFixture{midRollout()}, nil, 120, 40) }, typedOpen("ds agent"), draw.Marker},
		{"node dialog fields", func(t *testing.T) Model { m, _ := newNodeModel(t, rollingNodes(), nil); return m }, append(append([]tea.Msg{}, toNodes...), press("j"), press("d")), draw.Marker},
	}
	marked := func(t *testing.T, m Model, marker string) string {
		t.Helper()
		var lines []string
		for _, l := range strings.Split(plain(m), "\n") {
			if strings.HasPrefix(l, marker) {
				lines = append(lines, l)
			}
		}
		if len(lines) != 1 {
			t.Fatalf("%d lines carry %s, want exactly the selected row's:\n%s", len(lines), marker, plain(m))
		}
		return lines[0]
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			step := run
			if strings.HasPrefix(tc.name, "node") {
				step = runNodes
			}
			m := step(tc.model(t), tc.open...)
			before := marked(t, m, tc.marker)
			m = step(m, press("down"))
			if after := marked(t, m, tc.marker); after == before {
				t.Errorf("↓ did not move the marker off %q:\n%s", before, plain(m))
			}
		})
	}
}
