package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model/cluster"
	"rollscope/themes"
	"rollscope/ui"
)

var update = flag.Bool("update", false, "rewrite the golden screens in testdata")

// scenarioScreen runs a built-in scenario at full speed to a fixed virtual
// time and renders the console on what the cluster holds then.
func scenarioScreen(t *testing.T, name string, at time.Duration, w, h int, keys ...string) string {
	t.Helper()
	sc, err := scenario.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	cl, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Run(context.Background(), at); err != nil {
		t.Fatal(err)
	}
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: clock.Now(), Objects: cachedObjects(cl), Watch: cluster.WatchStatus{Synced: true, Connected: true}})
	var m tea.Model = ui.New(ui.Options{
		Cluster: c, Namespace: sc.Namespace, Context: "embedded",
		Theme: themes.NoColor(), Clock: clock.Now,
		Embedded: sim.NewControls(cl.Runner, 10),
	})
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	for _, k := range keys {
		m, _ = m.Update(keyPress(k))
	}
	return ansi.Strip(m.(ui.Model).Render())
}

// cachedObjects is everything the console watches, from the runner's caches.
func cachedObjects(cl *embedded.Cluster) []runtime.Object {
	l := cl.Runner.Listers()
	nodes, _ := l.Nodes.List(labels.Everything())
	ds, _ := l.Deployments.List(labels.Everything())
	rss, _ := l.ReplicaSets.List(labels.Everything())
	pods, _ := l.Pods.List(labels.Everything())
	return slices.Concat(objects(nodes), objects(ds), objects(rss), objects(pods))
}

// objects is a lister's list as the objects a batch carries.
func objects[T runtime.Object](list []T) []runtime.Object {
	out := make([]runtime.Object, len(list))
	for i, o := range list {
		out[i] = o
	}
	return out
}

func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	}
	return tea.KeyPressMsg{Code: rune(k[0]), Text: k}
}

// TestScenarioScreens renders the built-in scenarios at fixed virtual times,
// at 80x24 and 160x48, against golden files (ANSI stripped).
func TestScenarioScreens(t *testing.T) {
	cases := []struct {
		name     string
		scenario string
		at       time.Duration
		keys     []string
		want     []string // what the screen must show, whatever the golden says
	}{
		{"frontend-mid-rollout", "frontend", 66 * time.Second, nil, []string{"deploy frontend", "rev 2", "new", "old", "Waiting for deployment"}},
		{"frontend-done", "frontend", 200 * time.Second, nil, []string{"successfully rolled out", "stable"}},
		{"canary-paused", "canary", 60 * time.Second, nil, []string{"PAUSED", "DeploymentPaused"}},
		{"crashloop-failed", "crashloop", 100 * time.Second, nil, []string{"ProgressDeadlineExceeded", "exceeded its progress deadline"}},
		{"node-upgrade-nodes", "node-upgrade", 30 * time.Second, []string{"tab", "tab"}, []string{"outdated", "nodes-0"}},
	}
	for _, c := range cases {
		for _, sz := range []struct{ w, h int }{{80, 24}, {160, 48}} {
			name := fmt.Sprintf("%s-%dx%d", c.name, sz.w, sz.h)
			t.Run(name, func(t *testing.T) {
				got := scenarioScreen(t, c.scenario, c.at, sz.w, sz.h, c.keys...)
				lines := strings.Split(got, "\n")
				if len(lines) != sz.h {
					t.Errorf("%d lines, want %d", len(lines), sz.h)
				}
				for i, l := range lines {
					if n := ansi.StringWidth(l); n > sz.w {
						t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, n, sz.w, l)
					}
				}
				if sz.w == 160 {
					for _, w := range c.want {
						if !strings.Contains(got, w) {
							t.Errorf("screen lacks %q:\n%s", w, got)
						}
					}
				}
				golden(t, filepath.Join("testdata", name+".golden"), got+"\n")
			})
		}
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/rollscope -run Screens -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("screen differs from %s (-update to accept):\n--- got\n%s--- want\n%s", path, got, want)
	}
}
