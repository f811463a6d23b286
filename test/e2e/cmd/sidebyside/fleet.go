package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/test/e2e/controlplane"
)

// fleetShape is -fleet: how many Deployments, in how many namespaces, of
// how many replicas each.
type fleetShape struct {
	deployments, namespaces, replicas int
}

func (f fleetShape) pods() int { return f.deployments * f.replicas }

// parseFleet reads "DEPLOYMENTSxREPLICAS/NAMESPACES", e.g. "200x5/10".
func parseFleet(s string) (fleetShape, error) {
	var f fleetShape
	if s == "" {
		return f, nil
	}
	if _, err := fmt.Sscanf(s, "%dx%d/%d", &f.deployments, &f.replicas, &f.namespaces); err != nil ||
		f.deployments < 1 || f.replicas < 1 || f.namespaces < 1 || f.namespaces > f.deployments {
		return f, fmt.Errorf("-fleet %q: want DEPLOYMENTSxREPLICAS/NAMESPACES, e.g. 200x5/10", s)
	}
	return f, nil
}

// fleetNamespace is the i-th namespace of the fleet of run.
func fleetNamespace(run string, i int) string { return fmt.Sprintf("fleet-%s-%02d", run, i) }

// measureFleet runs `rollscope -A` (the fleet) beside k9s `-A :deploy` (with one
// namespace, both on it) while
// every Deployment of the fleet rolls to a new image at once: CPU and peak
// RSS of each during the rollouts, the first complete screen, and how long
// after the API said every rollout was complete the screen said so.
func measureFleet(ctx context.Context, cp *controlplane.ControlPlane, admin kubernetes.Interface, f fleetShape, consoles []console, work string) ([]result, error) {
	run := strconv.FormatInt(time.Now().Unix(), 36)
	say("fleet: creating %d deployments of %d replicas in %d namespaces", f.deployments, f.replicas, f.namespaces)
	var namespaces []string
	for i := range f.namespaces {
		namespaces = append(namespaces, fleetNamespace(run, i))
	}
	defer func() {
		for _, ns := range namespaces {
			_ = admin.CoreV1().Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{})
		}
	}()
	for i, ns := range namespaces {
		// Deployments are dealt out round-robin: namespace i gets d ≡ i.
		n := 0
		for d := i; d < f.deployments; d += f.namespaces {
			n++
		}
		if err := createMany(ctx, admin, ns, n, f.replicas); err != nil {
			return nil, err
		}
	}
	allComplete := func() (bool, error) {
		for _, ns := range namespaces {
			ok, err := everyComplete(ctx, admin, ns)
			if !ok || err != nil {
				return false, err
			}
		}
		return true, nil
	}
	if err := until(ctx, 15*time.Minute, "the fleet to be available", allComplete); err != nil {
		return nil, err
	}

	// The consoles watch every namespace (-A), or the one there is.
	scope := ""
	if len(namespaces) == 1 {
		scope = namespaces[0]
	}
	say("fleet available; starting %d consoles", len(consoles))
	sessions := make([]*session, len(consoles))
	results := make([]result, len(consoles))
	begun := time.Now()
	for i, c := range consoles {
		home := filepath.Join(work, fmt.Sprintf("home-fleet-%d", i))
		if err := os.MkdirAll(home, 0o755); err != nil {
			return nil, err
		}
		s, err := start(c, cp.AdminKubeconfig, scope, home, 100+i)
		if err != nil {
			return nil, err
		}
		defer s.stop()
		sessions[i] = s
		results[i] = result{console: c.name, replicas: f.pods()}
	}
	want := func() (map[string][4]int, error) {
		n, err := workloadCount(ctx, admin, scope)
		return map[string][4]int{"workloads": {n, f.replicas}}, err
	}
	if err := waitScreens(ctx, sessions, f.pods(), want, func(i int) { results[i].firstScreen = time.Since(begun) }); err != nil {
		return nil, fmt.Errorf("first screens: %w", err)
	}
	time.Sleep(3 * time.Second)
	before := make([]float64, len(sessions))
	var err error
	for i, s := range sessions {
		if before[i], err = cpuSeconds(s.pid); err != nil {
			return nil, fmt.Errorf("%s: %w (did it exit? its screen:\n%s)", s.name, err, s.screen())
		}
	}

	events, stopCounting, err := countPodEvents(ctx, admin, "", func(m metav1.Object) bool {
		return strings.HasPrefix(m.GetNamespace(), "fleet-"+run+"-")
	})
	if err != nil {
		return nil, err
	}
	defer stopCounting()

	say("fleet: set image on %d deployments", f.deployments)
	set := time.Now()
	for _, ns := range namespaces {
		list, err := admin.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for _, d := range list.Items {
			if err := setImageOf(ctx, admin, ns, d.Name, "example.com/app:v2"); err != nil {
				return nil, err
			}
		}
	}
	if err := until(ctx, 30*time.Minute, "the fleet's rollouts to complete", func() (bool, error) {
		if time.Since(set) < time.Second {
			return false, nil
		}
		return allComplete()
	}); err != nil {
		return nil, err
	}
	done := time.Now()
	counted := events.Load()
	say("fleet: rolled out in %s, %d pod events", done.Sub(set).Round(100*time.Millisecond), counted)
	if err := waitScreens(ctx, sessions, f.pods(), want, func(i int) { results[i].staleness = time.Since(done) }); err != nil {
		return nil, fmt.Errorf("screens after the rollouts: %w", err)
	}
	if err := spent(results, sessions, before, done.Sub(set), counted); err != nil {
		return nil, err
	}
	return results, nil
}

// workloadCount is how many workloads the fleet view lists in namespace
// ("" every one): Deployments, ReplicationControllers, StatefulSets and
// DaemonSets.
func workloadCount(ctx context.Context, admin kubernetes.Interface, namespace string) (int, error) {
	ds, err := admin.AppsV1().Deployments(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	rcs, err := admin.CoreV1().ReplicationControllers(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	sts, err := admin.AppsV1().StatefulSets(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	dss, err := admin.AppsV1().DaemonSets(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	return len(ds.Items) + len(rcs.Items) + len(sts.Items) + len(dss.Items), nil
}

// The fleet's summary line: "all namespaces · 200 workloads · … · 200 complete",
// or "ns NAME · 200 workloads · …".
var (
	fleetWorkloads = regexp.MustCompile(`(?:all namespaces|ns \S+) · (\d+) workloads?\b`)
	fleetComplete  = regexp.MustCompile(`· (\d+) complete\b`)
	// k9s's deployment row: NAMESPACE NAME READY UP-TO-DATE AVAILABLE AGE.
	k9sDeployRow = regexp.MustCompile(`(?m)^\W*\S+\s+\S+\s+(\d+)/(\d+)\s+(\d+)\s+(\d+)\s`)
)

// showsFleet reports whether a console shows every one of the cluster's n
// workloads complete (want["workloads"] = {n, replicas}).
func (s *session) showsFleet(screen string, want map[string][4]int) bool {
	n, replicas := want["workloads"][0], want["workloads"][1]
	switch s.kind {
	case rollscopeFleet:
		w, c := fleetWorkloads.FindStringSubmatch(screen), fleetComplete.FindStringSubmatch(screen)
		return w != nil && c != nil && w[1] == strconv.Itoa(n) && c[1] == strconv.Itoa(n)
	case k9sFleet:
		// k9s counts only Deployments, and shows a screenful of rows: the
		// title's count, and every row shown at its full replicas.
		m := k9sTitle.FindStringSubmatch(screen)
		if m == nil || m[1] != "deployments" {
			return false
		}
		rows := k9sDeployRow.FindAllStringSubmatch(screen, -1)
		if len(rows) == 0 {
			return false
		}
		r := strconv.Itoa(replicas)
		for _, row := range rows {
			if row[1] != r || row[2] != r || row[3] != r || row[4] != r {
				return false
			}
		}
		return true
	}
	return false
}
