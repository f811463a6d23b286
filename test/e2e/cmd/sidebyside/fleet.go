package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
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

// fleetCluster is one cluster of a fleet run: its context in the run's
// kubeconfig ("" when the run has one cluster), its client, the
// namespaces filled, and how many workloads the fleet lists there.
type fleetCluster struct {
	context    string
	admin      kubernetes.Interface
	namespaces []string
	workloads  int
}

// measureFleet runs fleet consoles — `rollscope -A`, or `--context a,b,c
// -A` over several clusters — beside k9s `-A :deploy` (with one namespace,
// all of them on it) while every Deployment of every cluster rolls to a
// new image at once: CPU and peak RSS of each during the rollouts, the
// first complete screen, and how long after the API said every rollout was
// complete the screen said so. Each console watches the clusters its
// console.clusters name (all when nil).
func measureFleet(ctx context.Context, clusters []*fleetCluster, kubeconfig string, f fleetShape, consoles []console, work string) ([]result, error) {
	allComplete := func() (bool, error) {
		for _, c := range clusters {
			if ok, err := fleetDone(ctx, c.admin, c.namespaces); !ok || err != nil {
				return false, err
			}
		}
		return true, nil
	}
	if err := until(ctx, 30*time.Minute, "the fleet to be available", allComplete); err != nil {
		return nil, err
	}

	// The consoles watch every namespace (-A), or the one there is.
	scope := ""
	if len(clusters) == 1 && len(clusters[0].namespaces) == 1 {
		scope = clusters[0].namespaces[0]
	}
	for _, c := range clusters {
		var err error
		if c.workloads, err = workloadCount(ctx, c.admin, scope); err != nil {
			return nil, err
		}
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
		s, err := start(c, kubeconfig, scope, home, 100+i)
		if err != nil {
			return nil, err
		}
		defer s.stop()
		sessions[i] = s
		watched := c.clusters
		if watched == nil {
			watched = make([]int, len(clusters))
			for k := range watched {
				watched[k] = k
			}
		}
		for _, k := range watched {
			s.workloads += clusters[k].workloads
		}
		sessions[i].clusters = watched
		results[i] = result{console: c.name, replicas: f.pods() * len(watched)}
	}
	if err := waitScreens(ctx, sessions, f.replicas, nil, func(i int) { results[i].firstScreen = time.Since(begun) }); err != nil {
		return nil, fmt.Errorf("first screens: %w", err)
	}
	time.Sleep(3 * time.Second)
	before := make([]float64, len(sessions))
	for i, s := range sessions {
		var err error
		if before[i], err = cpuSeconds(s.pid); err != nil {
			return nil, fmt.Errorf("%s: %w (did it exit? its screen:\n%s)", s.name, err, s.screen())
		}
	}

	counts := make([]*atomic.Int64, len(clusters))
	for k, c := range clusters {
		fleet := map[string]bool{}
		for _, ns := range c.namespaces {
			fleet[ns] = true
		}
		events, stopCounting, err := countPodEvents(ctx, c.admin, "", func(m metav1.Object) bool { return fleet[m.GetNamespace()] })
		if err != nil {
			return nil, err
		}
		defer stopCounting()
		counts[k] = events
	}

	say("fleet: set image on %d deployments in each of %d clusters, at once", f.deployments, len(clusters))
	set := time.Now()
	errs := make(chan error, len(clusters))
	for _, c := range clusters {
		go func() { errs <- setFleetImage(ctx, c.admin, c.namespaces, "example.com/app:v2") }()
	}
	for range clusters {
		if err := <-errs; err != nil {
			return nil, err
		}
	}
	if err := until(ctx, 60*time.Minute, "the fleet's rollouts to complete", func() (bool, error) {
		if time.Since(set) < time.Second {
			return false, nil
		}
		return allComplete()
	}); err != nil {
		return nil, err
	}
	done := time.Now()
	var counted int64
	perCluster := make([]int64, len(counts))
	for k, n := range counts {
		perCluster[k] = n.Load()
		counted += perCluster[k]
	}
	say("fleet: rolled out in %s, %d pod events", done.Sub(set).Round(100*time.Millisecond), counted)
	if err := waitScreens(ctx, sessions, f.replicas, nil, func(i int) { results[i].staleness = time.Since(done) }); err != nil {
		return nil, fmt.Errorf("screens after the rollouts: %w", err)
	}
	if err := spent(results, sessions, before, done.Sub(set), counted); err != nil {
		return nil, err
	}
	if others > 0 {
		if err := openFromFleet(ctx, clusters[0].admin, sessions); err != nil {
			return nil, err
		}
	}
	// A console's CPU per event is over the events of the clusters it
	// watches.
	for i, s := range sessions {
		results[i].events = 0
		for _, k := range s.clusters {
			results[i].events += perCluster[k]
		}
	}
	return results, nil
}

// fillFleet makes the fleet's namespaces in a cluster, its Deployments
// dealt out round-robin (namespace i gets d ≡ i), and returns the
// namespaces made, even when it fails part-way, for dropNamespaces.
func fillFleet(ctx context.Context, admin kubernetes.Interface, run string, f fleetShape) ([]string, error) {
	say("fleet: creating %d deployments of %d replicas in %d namespaces", f.deployments, f.replicas, f.namespaces)
	var namespaces []string
	for i := range f.namespaces {
		ns := fleetNamespace(run, i)
		namespaces = append(namespaces, ns)
		n := 0
		for d := i; d < f.deployments; d += f.namespaces {
			n++
		}
		if err := createMany(ctx, admin, ns, n, f.replicas); err != nil {
			return namespaces, err
		}
	}
	return namespaces, nil
}

func dropNamespaces(admin kubernetes.Interface, namespaces []string) {
	for _, ns := range namespaces {
		_ = admin.CoreV1().Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{})
	}
}

// fleetDone reports whether every Deployment of the namespaces has
// rolled out, as kubectl rollout status judges each.
func fleetDone(ctx context.Context, admin kubernetes.Interface, namespaces []string) (bool, error) {
	for _, ns := range namespaces {
		ok, err := everyComplete(ctx, admin, ns)
		if !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// setFleetImage sets image on every Deployment of the namespaces.
func setFleetImage(ctx context.Context, admin kubernetes.Interface, namespaces []string, image string) error {
	for _, ns := range namespaces {
		list, err := admin.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		for _, d := range list.Items {
			if err := setImageOf(ctx, admin, ns, d.Name, image); err != nil {
				return err
			}
		}
	}
	return nil
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

// showsFleet reports whether a console shows every one of the workloads
// it watches complete, each of replicas pods.
func (s *session) showsFleet(screen string, replicas int) bool {
	n := s.workloads
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
