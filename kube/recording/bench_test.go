package recording

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"rollscope/model/cluster"
	rec "rollscope/model/recording"
)

// fakeRollout writes to w what the console's watch sends during a rolling
// update of n pods from revision rev-1 to rev, starting at start, in
// batches of ten pods: each new pod created, scheduled, running, ready,
// with its three events, each old one deleted, and the Deployment's and
// ReplicaSets' status at each batch. It returns when it ended.
func fakeRollout(w *Writer, start time.Time, n, rev int) time.Time {
	at := start
	synced := cluster.WatchStatus{Synced: true, Connected: true}
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", UID: "d1", Generation: int64(rev)},
		Spec: appsv1.DeploymentSpec{Replicas: ptr.To(int32(n)), Template: template(rev)}}
	oldRS, newRS := replicaSet(rev-1, n), replicaSet(rev, 0)
	version := 0
	bump := func(m *metav1.ObjectMeta) { version++; m.ResourceVersion = fmt.Sprint(rev*1_000_000 + version) }
	for done := 0; done < n; done += 10 {
		var objs []runtime.Object
		for i := done; i < done+10 && i < n; i++ {
			for step := range 4 {
				p := pod(rev, i, step, at)
				bump(&p.ObjectMeta)
				objs = append(objs, p)
			}
			for _, reason := range []string{"Scheduled", "Pulled", "Started"} {
				e := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: fmt.Sprintf("web-%d-%d.%s", rev, i, reason)},
					InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "shop", Name: fmt.Sprintf("web-%d-%d", rev, i)},
					Reason:         reason, Message: "Successfully " + reason + " pod", Type: "Normal", Count: 1,
					FirstTimestamp: metav1.NewTime(at), LastTimestamp: metav1.NewTime(at)}
				bump(&e.ObjectMeta)
				objs = append(objs, e)
			}
		}
		newRS.Spec.Replicas = ptr.To(int32(min(done+10, n)))
		newRS.Status.Replicas, newRS.Status.ReadyReplicas = *newRS.Spec.Replicas, *newRS.Spec.Replicas
		oldRS.Spec.Replicas = ptr.To(int32(n - min(done+10, n)))
		oldRS.Status.Replicas, oldRS.Status.ReadyReplicas = *oldRS.Spec.Replicas, *oldRS.Spec.Replicas
		d.Status = appsv1.DeploymentStatus{ObservedGeneration: int64(rev), Replicas: int32(n), UpdatedReplicas: newRS.Status.Replicas,
			ReadyReplicas: int32(n), AvailableReplicas: int32(n)}
		bump(&d.ObjectMeta)
		bump(&oldRS.ObjectMeta)
		bump(&newRS.ObjectMeta)
		var gone []cluster.ObjectRef
		for i := done; i < done+10 && i < n; i++ {
			gone = append(gone, cluster.ObjectRef{Kind: "Pod", Namespace: "shop", Name: fmt.Sprintf("web-%d-%d", rev-1, i)})
		}
		w.Batch(cluster.Batch{At: at, Objects: append([]runtime.Object{d.DeepCopy(), oldRS.DeepCopy(), newRS.DeepCopy()}, objs...), Deleted: gone, Watch: synced})
		at = at.Add(500 * time.Millisecond)
	}
	return at
}

func template(rev int) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: fmt.Sprintf("registry.example.com/shop/web:v%d", rev),
			Env:            []corev1.EnvVar{{Name: "MODE", Value: "production"}},
			ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz"}}}}}}}
}

func replicaSet(rev, replicas int) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: fmt.Sprintf("web-%d", rev), UID: types.UID(fmt.Sprint("rs", rev)),
		Annotations:     map[string]string{"deployment.kubernetes.io/revision": fmt.Sprint(rev)},
		OwnerReferences: []metav1.OwnerReference{{Kind: "Deployment", Name: "web", UID: "d1", Controller: ptr.To(true)}}},
		Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To(int32(replicas)), Template: template(rev)}}
}

// pod is a slim pod (as kube/watch keeps it) at step 0 created, 1
// scheduled, 2 running, 3 ready.
func pod(rev, i, step int, at time.Time) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: fmt.Sprintf("web-%d-%d", rev, i), UID: types.UID(fmt.Sprintf("p%d-%d", rev, i)),
		Labels: map[string]string{"app": "web", "pod-template-hash": fmt.Sprint(rev)}, CreationTimestamp: metav1.NewTime(at),
		OwnerReferences: []metav1.OwnerReference{{Kind: "ReplicaSet", Name: fmt.Sprintf("web-%d", rev), UID: types.UID(fmt.Sprint("rs", rev)), Controller: ptr.To(true)}}},
		Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: fmt.Sprintf("registry.example.com/shop/web:v%d", rev)}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending}}
	if step >= 1 {
		p.Spec.NodeName = fmt.Sprintf("node-%d", i%50)
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at)})
	}
	if step >= 2 {
		p.Status.Phase, p.Status.PodIP, p.Status.StartTime = corev1.PodRunning, fmt.Sprintf("10.0.%d.%d", i/250, i%250), ptr.To(metav1.NewTime(at))
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", Ready: step == 3, Started: ptr.To(true),
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(at)}}}}
	}
	return p
}

// BenchmarkRecordingSize records a rolling update of 1,000 and of 3,000
// pods and reports the file's size (targets: 5 MB and 15 MB).
func BenchmarkRecordingSize(b *testing.B) {
	for _, n := range []int{1000, 3000} {
		b.Run(fmt.Sprint(n, "pods"), func(b *testing.B) {
			var size int64
			for b.Loop() {
				path := filepath.Join(b.TempDir(), "rec")
				w, _ := Create(path, false)
				w.Begin(rec.Header{}, nil)
				fakeRollout(w, t0, n, 2)
				w.Close()
				st, _ := os.Stat(path)
				size = st.Size()
			}
			b.ReportMetric(float64(size)/1e6, "MB/rollout")
		})
	}
}

// BenchmarkOpenAndSeekAnHour opens a recording of an hour (a 100-pod
// Deployment rolled every five minutes) and shows a moment of it: the
// last (the worst seek, every batch applied) or a random one, as a user
// opening the file with --at does.
func BenchmarkOpenAndSeekAnHour(b *testing.B) {
	path, end := recordRollouts(b, 12, 100, 5*time.Minute)
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			if _, err := Open(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	rnd := rand.New(rand.NewPCG(34, 34))
	b.Run("open-and-seek-anywhere", func(b *testing.B) {
		for b.Loop() {
			tape, err := Open(path)
			if err != nil {
				b.Fatal(err)
			}
			p := NewPlayer(tape)
			p.Seek(tape.Start().Add(time.Duration(rnd.Int64N(int64(end.Sub(tape.Start()))))))
			p.NewPicture()
		}
	})
	tape, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("seek-to-the-end", func(b *testing.B) {
		for b.Loop() {
			p := NewPlayer(tape)
			p.Seek(end.Add(-time.Second))
			if pic := p.NewPicture(); len(pic.Deployments()) != 1 {
				b.Fatal("no deployment at the end")
			}
		}
	})
	// A seek back from where the console is: the picture is rebuilt
	// from the start.
	b.Run("seek-back-anywhere", func(b *testing.B) {
		p := NewPlayer(tape)
		pic := p.NewPicture()
		for b.Loop() {
			p.Seek(end)
			pic.Apply(cluster0)
			p.Seek(tape.Start().Add(time.Duration(rnd.Int64N(int64(end.Sub(tape.Start()))))))
			pic.Apply(cluster0)
		}
	})
}
