package cluster_test

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	rt "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"rollscope/model"
	"rollscope/model/cluster"
)

// The fleet at scale: 2,000 workloads holding 50,000 pods on 1,000 nodes in
// 20 namespaces, as the console's watch delivers them. One deployment in
// twenty is mid-rollout (two ReplicaSets, new pods not ready), a few crash-
// loop, the rest are rolled out; 40 of the workloads are StatefulSets and
// DaemonSets.

const (
	fleetWorkloads = 2000
	fleetPodsEach  = 25
	fleetNodes     = 1000
)

// watchedPod is a pod as an API server serves it — defaulted fields, five
// conditions, a container status — less what the watch's transform drops
// (kube/watch/trim.go: managed fields, volumes, env, mounts, probes).
func watchedPod(rs metav1.Object, kind, name, image, node string, ready bool, created time.Time) *corev1.Pod {
	yes := true
	grace := int64(30)
	prio := int32(0)
	start := metav1.NewTime(created)
	status := corev1.ConditionTrue
	if !ready {
		status = corev1.ConditionFalse
	}
	cond := func(t corev1.PodConditionType, s corev1.ConditionStatus) corev1.PodCondition {
		return corev1.PodCondition{Type: t, Status: s, LastTransitionTime: start}
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: rs.GetNamespace(), Name: name, GenerateName: rs.GetName() + "-", UID: types.UID("uid-" + rs.GetNamespace() + "-" + name),
			ResourceVersion: "1", CreationTimestamp: start,
			Labels:          map[string]string{"app": rs.GetLabels()["app"], model.PodTemplateHashLabel: rs.GetLabels()[model.PodTemplateHashLabel]},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: rs.GetName(), UID: rs.GetUID(), Controller: &yes, BlockOwnerDeletion: &yes}},
		},
		Spec: corev1.PodSpec{
			NodeName: node, RestartPolicy: corev1.RestartPolicyAlways, DNSPolicy: corev1.DNSClusterFirst,
			ServiceAccountName: "default", SchedulerName: "default-scheduler", TerminationGracePeriodSeconds: &grace,
			Priority: &prio, EnableServiceLinks: &yes, SecurityContext: &corev1.PodSecurityContext{},
			Tolerations: []corev1.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &[]int64{300}[0]},
				{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &[]int64{300}[0]},
			},
			Containers: []corev1.Container{{
				Name: "app", Image: image, ImagePullPolicy: corev1.PullIfNotPresent,
				Ports:                    []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
				Resources:                corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")}},
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			}},
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning, HostIP: "10.0.3.17", HostIPs: []corev1.HostIP{{IP: "10.0.3.17"}},
			PodIP: "10.244.3.41", PodIPs: []corev1.PodIP{{IP: "10.244.3.41"}}, StartTime: &start, QOSClass: corev1.PodQOSBurstable,
			Conditions: []corev1.PodCondition{
				cond("PodReadyToStartContainers", corev1.ConditionTrue), cond(corev1.PodInitialized, corev1.ConditionTrue),
				cond(corev1.PodReady, status), cond(corev1.ContainersReady, status), cond(corev1.PodScheduled, corev1.ConditionTrue),
			},
			ContainerStatuses: []corev1.ContainerStatus{{
				Name: "app", Image: image, ImageID: "docker.io/library/" + image + "@sha256:4f2d1c3e9b8a7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b5a4938271605f4e",
				ContainerID: "containerd://9c1e5f0d2b7a4c8e3f6a1d9b0e4c7f2a5d8b1e4f7a0c3d6e9b2f5a8c1d4e7f0a",
				Ready:       ready, Started: &yes,
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: start}},
			}},
		},
	}
}

// fleetCluster loads the fleet; it returns the cluster, every pod, and the
// time of the load.
func fleetCluster() (*cluster.Cluster, []*corev1.Pod, time.Time) {
	c, pods, _, now := loadFleet(false)
	return c, pods, now
}

// loadFleet loads the fleet; slim pods are cut as the watch's slim pods
// keep them (kube/watch/slim.go: the controller reference, names, images,
// states, conditions without probe times). rolling are the new
// ReplicaSets of the Deployments rolling out.
func loadFleet(slim bool) (c *cluster.Cluster, pods []*corev1.Pod, rolling []*appsv1.ReplicaSet, now time.Time) {
	now = at(60)
	var objs []rt.Object
	for i := range fleetNodes {
		n := groupNode(fmt.Sprintf("node-%04d", i), "nodes", "v1", at(0))
		n.ResourceVersion = "1"
		objs = append(objs, n)
	}
	for i := range 20 {
		objs = append(objs, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("team-%02d", i), ResourceVersion: "1"}})
	}
	node := func(k int) string { return fmt.Sprintf("node-%04d", k%fleetNodes) }
	for i := range fleetWorkloads {
		ns := fmt.Sprintf("team-%02d", i%20)
		name := fmt.Sprintf("app-%04d", i)
		// A StatefulSet or DaemonSet owns its rolled-out pods directly.
		var owner interface {
			rt.Object
			metav1.Object
		}
		var kind, image string
		switch i % 50 {
		case 7:
			owner, kind, image = fleetStatefulSet(ns, name), "StatefulSet", "db:2"
		case 8:
			owner, kind, image = fleetDaemonSet(ns, name), "DaemonSet", "agent:2"
		}
		if owner != nil {
			objs = append(objs, owner)
			for j := range fleetPodsEach {
				p := watchedPod(owner, kind, fmt.Sprintf("%s-%d", name, j), image, node(i*fleetPodsEach+j), true, at(1))
				objs, pods = append(objs, p), append(pods, p)
			}
			continue
		}
		d := deployment(name, "web:v2", fleetPodsEach, "2")
		d.Namespace, d.UID, d.ResourceVersion = ns, types.UID("uid-"+ns+"-"+name), "1"
		d.Spec.Template.Spec.Containers[0].Name = "app"
		rollingOut := i%20 == 3
		old := ownedReplicaSet(d, "v1", "1", "web:v1", 0, 0, at(0))
		cur := ownedReplicaSet(d, "v2", "2", "web:v2", fleetPodsEach, fleetPodsEach, at(1))
		d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: fleetPodsEach, UpdatedReplicas: fleetPodsEach, ReadyReplicas: fleetPodsEach, AvailableReplicas: fleetPodsEach,
			Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable", LastUpdateTime: metav1.NewTime(at(2))}}}
		if rollingOut {
			*old.Spec.Replicas, old.Status.Replicas, old.Status.AvailableReplicas, old.Status.ReadyReplicas = 15, 15, 15, 15
			*cur.Spec.Replicas, cur.Status.Replicas, cur.Status.AvailableReplicas, cur.Status.ReadyReplicas = 10, 10, 5, 5
			rolling = append(rolling, cur)
			d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 25, UpdatedReplicas: 10, ReadyReplicas: 20, AvailableReplicas: 20,
				Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "ReplicaSetUpdated", LastUpdateTime: metav1.NewTime(now)}}}
		}
		for _, rs := range []*appsv1.ReplicaSet{old, cur} {
			rs.Namespace, rs.UID, rs.ResourceVersion = ns, types.UID("uid-"+ns+"-"+rs.Name), "1"
			rs.OwnerReferences[0].UID = d.UID
			rs.Spec.Template.Spec.Containers[0].Name = "app"
		}
		objs = append(objs, d, old, cur)
		for j := range fleetPodsEach {
			rs, image, ready := cur, "web:v2", true
			if rollingOut && j < 15 {
				rs, image = old, "web:v1"
			} else if rollingOut && j >= 20 {
				ready = false
			}
			p := watchedPod(rs, "ReplicaSet", rs.Name+"-"+strconv.Itoa(j), image, node(i*fleetPodsEach+j), ready, at(1))
			if i%100 == 11 && j == 0 {
				crashLooping(p, 6)
			}
			if slim {
				p = slimPod(p)
			}
			objs, pods = append(objs, p), append(pods, p)
		}
	}
	c = cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(59), Objects: objs, Watch: synced})
	return c, pods, rolling, now
}

func fleetStatefulSet(ns, name string) *appsv1.StatefulSet {
	replicas := int32(fleetPodsEach)
	return &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + ns + "-" + name), Generation: 1, ResourceVersion: "1",
			Labels: map[string]string{"app": name}},
		Spec: appsv1.StatefulSetSpec{Replicas: &replicas, Template: podTemplate(name, "db:2"),
			UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType}},
		Status: appsv1.StatefulSetStatus{ObservedGeneration: 1, Replicas: replicas, ReadyReplicas: replicas, AvailableReplicas: replicas,
			CurrentReplicas: replicas, UpdatedReplicas: replicas, CurrentRevision: name + "-1", UpdateRevision: name + "-1"},
	}
}

func fleetDaemonSet(ns, name string) *appsv1.DaemonSet {
	return &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + ns + "-" + name), Generation: 1, ResourceVersion: "1",
			Labels: map[string]string{"app": name}},
		Spec: appsv1.DaemonSetSpec{Template: podTemplate(name, "agent:2"),
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType}},
		Status: appsv1.DaemonSetStatus{ObservedGeneration: 1, DesiredNumberScheduled: fleetPodsEach, CurrentNumberScheduled: fleetPodsEach,
			UpdatedNumberScheduled: fleetPodsEach, NumberReady: fleetPodsEach, NumberAvailable: fleetPodsEach},
	}
}

// changedPods is two versions of a batch of n of the pods, every tenth
// one, alternately not ready and ready, so that each batch changes them.
func changedPods(pods []*corev1.Pod, n int) [2][]rt.Object {
	var batches [2][]rt.Object
	for i := 0; i < len(pods) && len(batches[0]) < n; i += len(pods) / n {
		for v := range batches {
			p := pods[i].DeepCopy()
			p.ResourceVersion = strconv.Itoa(2 + v)
			ready := corev1.ConditionStatus(corev1.ConditionTrue)
			if v == 0 {
				ready = corev1.ConditionFalse
			}
			p.Status.Conditions[2].Status, p.Status.Conditions[3].Status = ready, ready
			p.Status.Conditions[2].LastTransitionTime = metav1.NewTime(at(60 + v))
			p.Status.ContainerStatuses[0].Ready = v == 1
			batches[v] = append(batches[v], p)
		}
	}
	return batches
}

// A refresh of the fleet when nothing changed: what the console pays up to
// 20 times a second.
func BenchmarkFleetRefresh(b *testing.B) {
	c, _, now := readFleet(b)
	cpuLoop(b, nil, func(int) { wantRows(b, c.Fleet("", now), fleetWorkloads) })
}

// The same refresh with the clock moving 50 ms each time, as the console's
// ticks move it: rows whose line counts seconds are derived again each
// second, and waiting rollouts may turn stuck.
func BenchmarkFleetRefreshClockMoving(b *testing.B) {
	c, _, now := readFleet(b)
	cpuLoop(b, nil, func(i int) { c.Fleet("", now.Add(time.Duration(i)*50*time.Millisecond)) })
}

// One namespace's fleet (100 rows of the 2,000).
func BenchmarkFleetRefreshOneNamespace(b *testing.B) {
	c, _, now := readFleet(b)
	cpuLoop(b, nil, func(int) { wantRows(b, c.Fleet("team-07", now), fleetWorkloads/20) })
}

// Apply of a batch of 5,000 changed pods, spread over every workload.
func BenchmarkFleetApplyFiveThousandPods(b *testing.B) {
	c, pods, now := readFleet(b)
	batches := changedPods(pods, 5000)
	cpuLoop(b, nil, func(i int) {
		if !c.Apply(cluster.Batch{At: now, Objects: batches[i%2], Watch: synced}) {
			b.Fatal("Apply saw no change in a batch of changed pods")
		}
	})
}

// The refresh after such a batch: every workload's row derived again.
func BenchmarkFleetRefreshAfterFiveThousandPods(b *testing.B) {
	c, pods, now := readFleet(b)
	batches := changedPods(pods, 5000)
	cpuLoop(b,
		func(i int) { c.Apply(cluster.Batch{At: now, Objects: batches[i%2], Watch: synced}) },
		func(int) { wantRows(b, c.Fleet("", now), fleetWorkloads) })
}

// The refresh after a scale step of every rolling Deployment's new
// ReplicaSet (100 of the 2,000 rows): a new generation each, its template
// shared with the version before as the watch shares it.
func BenchmarkFleetRefreshAfterAScaleStep(b *testing.B) {
	c, _, rolling, now := loadFleet(false)
	wantRows(b, c.Fleet("", now), fleetWorkloads)
	var steps [2][]rt.Object
	for v := range steps {
		for _, rs := range rolling {
			step := *rs
			step.Generation, step.ResourceVersion = rs.Generation+1+int64(v), strconv.Itoa(2+v)
			step.Spec.Replicas = ptr.To(*rs.Spec.Replicas + int32(v))
			steps[v] = append(steps[v], &step)
		}
	}
	cpuLoop(b,
		func(i int) { c.Apply(cluster.Batch{At: now, Objects: steps[i%2], Watch: synced}) },
		func(int) { wantRows(b, c.Fleet("", now), fleetWorkloads) })
}

// What an -A console whose kubeconfig namespace holds no Deployment asks
// on every refresh: the first Deployment there (none).
func BenchmarkFirstDeploymentWhereThereIsNone(b *testing.B) {
	c, _, _ := readFleet(b)
	cpuLoop(b, nil, func(int) {
		if _, _, ok := c.FirstDeployment("default"); ok {
			b.Fatal("a Deployment in a namespace without one")
		}
	})
}

// readFleet loads the fleet and reads it once, as the console has before
// its first refresh, so that a benchmark times the refreshes after it.
func readFleet(b *testing.B) (*cluster.Cluster, []*corev1.Pod, time.Time) {
	c, pods, now := fleetCluster()
	wantRows(b, c.Fleet("", now), fleetWorkloads)
	return c, pods, now
}

func wantRows(b *testing.B, rows []cluster.FleetRow, want int) {
	if len(rows) != want {
		b.Fatalf("%d rows, want %d", len(rows), want)
	}
}

// The heap the picture holds once the fleet is loaded and read, as
// MB-heap (runtime.MemStats.HeapInuse after a collection): with pods as
// the watch's transform trims them, and as its slim pods keep them.
func BenchmarkFleetHeap(b *testing.B) {
	for _, slim := range []bool{false, true} {
		name := "trimmed"
		if slim {
			name = "slim"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				runtime.GC()
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				c, _, _, now := loadFleet(slim)
				if len(c.Fleet("", now)) != fleetWorkloads {
					b.Fatal("rows went missing")
				}
				runtime.GC()
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/(1<<20), "MB-heap")
				runtime.KeepAlive(c)
			}
		})
	}
}

// slimPod is p as the watch's slim pods keep it.
func slimPod(p *corev1.Pod) *corev1.Pod {
	s := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace, UID: p.UID, ResourceVersion: p.ResourceVersion,
		CreationTimestamp: p.CreationTimestamp, Labels: p.Labels,
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: p.OwnerReferences[0].Kind, Name: p.OwnerReferences[0].Name,
			UID: p.OwnerReferences[0].UID, Controller: p.OwnerReferences[0].Controller}}},
		Spec:   corev1.PodSpec{NodeName: p.Spec.NodeName},
		Status: corev1.PodStatus{Phase: p.Status.Phase, PodIP: p.Status.PodIP, QOSClass: p.Status.QOSClass, StartTime: p.Status.StartTime}}
	for _, c := range p.Spec.Containers {
		s.Spec.Containers = append(s.Spec.Containers, corev1.Container{Name: c.Name, Image: c.Image})
	}
	for _, c := range p.Status.Conditions {
		s.Status.Conditions = append(s.Status.Conditions, corev1.PodCondition{Type: c.Type, Status: c.Status, Reason: c.Reason, LastTransitionTime: c.LastTransitionTime})
	}
	for _, c := range p.Status.ContainerStatuses {
		s.Status.ContainerStatuses = append(s.Status.ContainerStatuses, corev1.ContainerStatus{Name: c.Name, Image: c.Image, Ready: c.Ready,
			RestartCount: c.RestartCount, Started: c.Started, State: c.State, LastTerminationState: c.LastTerminationState})
	}
	return s
}
