package fleet

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/model/kind"
)

// What the API says about each workload, read by the test itself through
// client-go, field by field, the way an operator reads `kubectl get -o yaml`
// and `kubectl rollout status`: the oracle rollscope's fleet is held to. It
// never calls the model's fleet code, so that a wrong rule there shows here.

// apiRow is a workload as the API reports it.
type apiRow struct {
	State    cluster.FleetState
	Revision int64
	// Desired, Updated and Available as the fleet's progress bar counts them.
	Desired, Updated, Available int32
}

func (r apiRow) String() string {
	return fmt.Sprintf("%s rev %d %d/%d updated %d/%d available", r.State, r.Revision, r.Updated, r.Desired, r.Available, r.Desired)
}

// truth is every workload of some namespaces, keyed "NAMESPACE kind/NAME".
type truth map[string]apiRow

// readTruth reads every Deployment, StatefulSet, DaemonSet and
// ReplicationController of namespaces, with their pods and
// ControllerRevisions.
func readTruth(ctx context.Context, client kubernetes.Interface, namespaces []string) (truth, error) {
	out := truth{}
	for _, ns := range namespaces {
		pods, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		revs, err := client.AppsV1().ControllerRevisions(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		deps, err := client.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for i := range deps.Items {
			d := &deps.Items[i]
			out[ns+" "+short(kind.Deployment)+"/"+d.Name] = deploymentTruth(d, podsOf(pods.Items, d.Spec.Selector))
		}
		sets, err := client.AppsV1().StatefulSets(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for _, s := range sets.Items {
			done := s.Status.ObservedGeneration >= s.Generation && s.Status.Replicas == *s.Spec.Replicas &&
				s.Status.ReadyReplicas == *s.Spec.Replicas && s.Status.UpdatedReplicas == *s.Spec.Replicas &&
				s.Status.CurrentRevision == s.Status.UpdateRevision
			out[ns+" "+short(kind.StatefulSet)+"/"+s.Name] = apiRow{
				State: doneOrRolling(done), Revision: lastRevision(revs.Items, s.UID),
				Desired: *s.Spec.Replicas, Updated: s.Status.UpdatedReplicas, Available: s.Status.AvailableReplicas,
			}
		}
		daemons, err := client.AppsV1().DaemonSets(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for _, ds := range daemons.Items {
			st := ds.Status
			done := st.ObservedGeneration >= ds.Generation && st.UpdatedNumberScheduled == st.DesiredNumberScheduled &&
				st.NumberAvailable == st.DesiredNumberScheduled
			out[ns+" "+short(kind.DaemonSet)+"/"+ds.Name] = apiRow{
				State: doneOrRolling(done), Revision: lastRevision(revs.Items, ds.UID),
				Desired: st.DesiredNumberScheduled, Updated: st.UpdatedNumberScheduled, Available: st.NumberAvailable,
			}
		}
		rcs, err := client.CoreV1().ReplicationControllers(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for _, rc := range rcs.Items {
			_, updating := rc.Annotations[model.RCNextAnnotation]
			done := !updating && rc.Status.AvailableReplicas >= *rc.Spec.Replicas
			out[ns+" "+short(kind.ReplicationController)+"/"+rc.Name] = apiRow{
				State:   doneOrRolling(done),
				Desired: *rc.Spec.Replicas, Updated: rc.Status.Replicas, Available: rc.Status.AvailableReplicas,
			}
		}
	}
	return out, nil
}

// deploymentTruth is a Deployment's state from its conditions, spec and
// status and its pods' container states, most urgent first: past its
// progress deadline (Progressing=False, ProgressDeadlineExceeded, as
// `kubectl rollout status` exits 1 on); a pod in CrashLoopBackOff; paused;
// rolled out as `kubectl rollout status` says it; a new pod whose image
// cannot be pulled or that fits on no node (what waiting will not fix);
// else rolling.
func deploymentTruth(d *appsv1.Deployment, pods []*corev1.Pod) apiRow {
	rev, _ := strconv.ParseInt(d.Annotations["deployment.kubernetes.io/revision"], 10, 64)
	st := d.Status
	r := apiRow{Revision: rev, Desired: *d.Spec.Replicas, Updated: st.UpdatedReplicas, Available: st.AvailableReplicas}
	deadline := false
	for _, c := range st.Conditions {
		if c.Type == appsv1.DeploymentProgressing && c.Status == corev1.ConditionFalse && c.Reason == "ProgressDeadlineExceeded" {
			deadline = true
		}
	}
	done := st.ObservedGeneration >= d.Generation && st.UpdatedReplicas == *d.Spec.Replicas &&
		st.Replicas == st.UpdatedReplicas && st.AvailableReplicas == st.UpdatedReplicas
	switch {
	case deadline:
		r.State = cluster.FleetFailed
	case anyWaiting(pods, "CrashLoopBackOff"):
		r.State = cluster.FleetCrashLooping
	case d.Spec.Paused:
		r.State = cluster.FleetPaused
	case done:
		r.State = cluster.FleetComplete
	case anyWaiting(pods, "ErrImagePull", "ImagePullBackOff") || anyUnschedulable(pods):
		r.State = cluster.FleetStuck
	default:
		r.State = cluster.FleetRolling
	}
	return r
}

func doneOrRolling(done bool) cluster.FleetState {
	if done {
		return cluster.FleetComplete
	}
	return cluster.FleetRolling
}

// podsOf is the pods sel selects that are not being deleted.
func podsOf(pods []corev1.Pod, sel *metav1.LabelSelector) []*corev1.Pod {
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return nil
	}
	var out []*corev1.Pod
	for i := range pods {
		p := &pods[i]
		if p.DeletionTimestamp == nil && s.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	return out
}

func anyWaiting(pods []*corev1.Pod, reasons ...string) bool {
	for _, p := range pods {
		for _, cs := range p.Status.ContainerStatuses {
			if w := cs.State.Waiting; w != nil && slices.Contains(reasons, w.Reason) {
				return true
			}
		}
	}
	return false
}

func anyUnschedulable(pods []*corev1.Pod) bool {
	for _, p := range pods {
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable {
				return true
			}
		}
	}
	return false
}

// lastRevision is the highest revision among owner's ControllerRevisions:
// the revision `kubectl rollout history` lists last.
func lastRevision(revs []appsv1.ControllerRevision, owner types.UID) int64 {
	var last int64
	for _, r := range revs {
		for _, ref := range r.OwnerReferences {
			if ref.UID == owner && r.Revision > last {
				last = r.Revision
			}
		}
	}
	return last
}

// shown is what rollscope shows of each workload: its state and, where it
// says it, the revision and counts (nil where not).
type shown struct {
	State    cluster.FleetState
	Revision *int64
	Counts   *[3]int32 // desired, updated, available
}

// disagreements compares what rollscope showed with the API read just
// before (before) and just after (after). Where the two reads agree,
// rollscope must show exactly that; where the workload moved in between,
// either is the truth of that moment. Every workload of want's keys must
// be shown and nothing else.
func disagreements(before, after truth, seen map[string]shown, want []workload) []string {
	var off []string
	for _, w := range want {
		k := w.key()
		s, ok := seen[k]
		if !ok {
			off = append(off, k+": not shown")
			continue
		}
		b, a := before[k], after[k]
		if !matches(s, b) && !matches(s, a) {
			off = append(off, fmt.Sprintf("%s: shown %s, the API says %s", k, s, b))
		}
	}
	for k := range seen {
		if !slices.ContainsFunc(want, func(w workload) bool { return w.key() == k }) {
			off = append(off, k+": shown, but not in the scope")
		}
	}
	slices.Sort(off)
	return off
}

func matches(s shown, r apiRow) bool {
	if s.State != r.State {
		return false
	}
	if s.Revision != nil && *s.Revision != r.Revision {
		return false
	}
	// Counts are compared where they cannot move without the state moving:
	// a rolled-out workload's. A rolling one's line is printed when its
	// state changes, not when its counts do.
	if s.Counts != nil && r.State == cluster.FleetComplete && *s.Counts != [3]int32{r.Desired, r.Updated, r.Available} {
		return false
	}
	return true
}

func (s shown) String() string {
	var b strings.Builder
	b.WriteString(s.State.String())
	if s.Revision != nil {
		fmt.Fprintf(&b, " rev %d", *s.Revision)
	}
	if s.Counts != nil {
		fmt.Fprintf(&b, " %d/%d updated %d/%d available", s.Counts[1], s.Counts[0], s.Counts[2], s.Counts[0])
	}
	return b.String()
}
