package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"rollscope/test/e2e/controlplane"
)

// others is -others: how many ready pods the rest of the cluster holds,
// outside the namespaces measured.
var others int

// othersPerDeployment is the size of each of the rest's Deployments, one a
// namespace.
const othersPerDeployment = 5000

// othersNamespace is the i-th namespace of the rest of the cluster.
func othersNamespace(i int) string { return fmt.Sprintf("others-%02d", i) }

// fillOthers makes the rest of a large cluster: n ready pods, in
// Deployments of othersPerDeployment, one a namespace, and returns the
// namespaces made, even on failure. nodeCount is how many hollow nodes to
// wait for.
//
// The test control plane's scheduler places about 35 pods a second
// (150,000 would take 71 minutes), so the pods are created bound to the
// hollow nodes, spread evenly as the scheduler's spreading would, and
// owned by their Deployment's ReplicaSet, which then has nothing to
// create. The Deployments are made with no replicas; once the controller
// manager has made their ReplicaSets it is stopped, the ReplicaSets and
// Deployments are scaled, the pods created, and it starts again once the
// kubelets have started them all. Left running, or frozen and thawed, it
// deleted the pods of ReplicaSets it had not yet seen scaled (pods and
// ReplicaSets come in watches of their own; a controller manager that
// starts lists both before it acts), and its ReplicaSet controller,
// counting a ReplicaSet's thousands of pods again at each status write,
// held the kubelets to 5 pods a second.
func fillOthers(ctx context.Context, cp *controlplane.ControlPlane, admin kubernetes.Interface, n, nodeCount int) ([]string, error) {
	var nodes *corev1.NodeList
	if err := until(ctx, 10*time.Minute, fmt.Sprintf("%d hollow nodes", nodeCount), func() (bool, error) {
		var err error
		nodes, err = admin.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		return err == nil && len(nodes.Items) >= nodeCount, err
	}); err != nil {
		return nil, err
	}
	bulk, err := bulkClient(cp.AdminConfig())
	if err != nil {
		return nil, err
	}
	say("others: creating %d pods bound to %d nodes, in deployments of %d", n, len(nodes.Items), othersPerDeployment)
	start := time.Now()
	var namespaces []string
	var sizes []int
	for placed := 0; placed < n; placed += sizes[len(sizes)-1] {
		ns := othersNamespace(len(namespaces))
		namespaces, sizes = append(namespaces, ns), append(sizes, min(othersPerDeployment, n-placed))
		if err := createMany(ctx, admin, ns, 0, 0); err != nil {
			return namespaces, err
		}
	}
	sets := make([]*appsv1.ReplicaSet, len(namespaces))
	for i, ns := range namespaces {
		if sets[i], err = replicaSetOf(ctx, admin, ns); err != nil {
			return namespaces, err
		}
	}
	cp.StopControllerManager()
	placed := 0
	for i, rs := range sets {
		scale := []byte(fmt.Sprintf(`{"spec":{"replicas":%d}}`, sizes[i]))
		if _, err := admin.AppsV1().ReplicaSets(rs.Namespace).Patch(ctx, rs.Name, types.MergePatchType, scale, metav1.PatchOptions{}); err != nil {
			return namespaces, errors.Join(err, cp.StartControllerManager(ctx))
		}
		if _, err := admin.AppsV1().Deployments(rs.Namespace).Patch(ctx, appName, types.MergePatchType, scale, metav1.PatchOptions{}); err != nil {
			return namespaces, errors.Join(err, cp.StartControllerManager(ctx))
		}
		if err := createBound(ctx, bulk, rs, sizes[i], placed, nodes.Items); err != nil {
			return namespaces, errors.Join(err, cp.StartControllerManager(ctx))
		}
		placed += sizes[i]
		say("others: %d pods created (%s)", placed, time.Since(start).Round(time.Second))
	}
	// Each look filters every pod of the cluster: once every few seconds.
	var looked time.Time
	if err := until(ctx, 90*time.Minute, "the kubelets to start the rest of the cluster's pods", func() (bool, error) {
		if time.Since(looked) < 5*time.Second {
			return false, nil
		}
		looked = time.Now()
		return nonePending(ctx, admin)
	}); err != nil {
		return namespaces, errors.Join(err, cp.StartControllerManager(ctx))
	}
	say("others: the kubelets started %d pods in %s", n, time.Since(start).Round(time.Second))
	if err := cp.StartControllerManager(ctx); err != nil {
		return namespaces, err
	}
	if err := until(ctx, 90*time.Minute, "the rest of the cluster to be available", func() (bool, error) {
		return fleetDone(ctx, admin, namespaces)
	}); err != nil {
		return namespaces, err
	}
	say("others: %d pods ready in %s", n, time.Since(start).Round(time.Second))
	return namespaces, nil
}

// nonePending reports whether no pod of the cluster is waiting to start.
func nonePending(ctx context.Context, admin kubernetes.Interface) (bool, error) {
	list, err := admin.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: "status.phase=Pending", Limit: 1})
	return err == nil && len(list.Items) == 0, err
}

// bulkQPS is the request rate of the clients that fill the rest of the
// cluster and of the hollow nodes that start its pods: the API server's
// pace, not the 200 requests a second of the control plane's clients, at
// which 150,000 pods' status writes alone would take most of an hour.
const bulkQPS = 5000

// bulkClient is a client of config at bulkQPS.
func bulkClient(config *rest.Config) (kubernetes.Interface, error) {
	fast := rest.CopyConfig(config)
	fast.QPS, fast.Burst = bulkQPS, bulkQPS
	return kubernetes.NewForConfig(fast)
}

// replicaSetOf waits for the ReplicaSet the Deployment controller makes
// for the namespace's Deployment.
func replicaSetOf(ctx context.Context, admin kubernetes.Interface, ns string) (*appsv1.ReplicaSet, error) {
	var rs *appsv1.ReplicaSet
	err := until(ctx, 2*time.Minute, "the ReplicaSet of "+ns, func() (bool, error) {
		list, err := admin.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
		if err != nil || len(list.Items) == 0 {
			return false, err
		}
		rs = &list.Items[0]
		return true, nil
	})
	return rs, err
}

// createBound creates size pods of the ReplicaSet's template, owned by
// it, the k-th bound to node (first+k) mod len(nodes).
func createBound(ctx context.Context, client kubernetes.Interface, rs *appsv1.ReplicaSet, size, first int, nodes []corev1.Node) error {
	const workers = 32
	next := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	owner := metav1.NewControllerRef(rs, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				pod := &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{
						Name:            fmt.Sprintf("%s-%06d", rs.Name, k),
						Namespace:       rs.Namespace,
						Labels:          rs.Spec.Template.Labels,
						OwnerReferences: []metav1.OwnerReference{*owner},
					},
					Spec: *rs.Spec.Template.Spec.DeepCopy(),
				}
				pod.Spec.NodeName = nodes[(first+k)%len(nodes)].Name
				if _, err := client.CoreV1().Pods(rs.Namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
					errs <- fmt.Errorf("creating pod %s/%s: %w", pod.Namespace, pod.Name, err)
					return
				}
			}
		}()
	}
	var err error
feed:
	for k := range size {
		select {
		case next <- k:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err != nil {
		return err
	}
	select {
	case err = <-errs:
	default:
	}
	return err
}

// openFromFleet opens the fleet's selected workload in each rollscope fleet
// console, as an operator goes from the fleet of every namespace to one
// rollout: the page reads every pod, which the fleet did not watch, so the
// console lists every pod of the cluster. It says how long until each
// screen stopped saying it was listing them, beside the API's own list of
// every pod, and each console's memory then.
func openFromFleet(ctx context.Context, admin kubernetes.Interface, sessions []*session) error {
	apiList, listed, err := listTime(ctx, admin, "")
	if err != nil {
		return err
	}
	say("others: the API lists all %d pods in %s", listed, apiList.Round(10*time.Millisecond))
	for _, s := range sessions {
		if s.kind != rollscopeFleet {
			continue
		}
		before, err := cpuSeconds(s.pid)
		if err != nil {
			return err
		}
		pressed := time.Now()
		if _, err := s.tmux("send-keys", "-t", "console", "Enter"); err != nil {
			return err
		}
		if err := until(ctx, 10*time.Minute, s.name+" to list every pod", func() (bool, error) {
			screen := s.screen()
			return !strings.Contains(screen, "listing ") && strings.Contains(screen, "successfully rolled out"), nil
		}); err != nil {
			return fmt.Errorf("%w; its screen:\n%s", err, s.screen())
		}
		opened := time.Since(pressed)
		cpu, err := cpuSeconds(s.pid)
		if err != nil {
			return err
		}
		rss, err := peakRSS(s.pid)
		if err != nil {
			return err
		}
		say("others: %s opened a workload and listed every pod in %s (%.2f s of CPU), peak RSS %.0f MiB",
			s.name, opened.Round(10*time.Millisecond), cpu-before, rss)
	}
	return nil
}
