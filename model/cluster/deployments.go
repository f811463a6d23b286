package cluster

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
	"rollscope/model/kind"
)

// Deployments is the deployment picker's list, by namespace then name.
func (c *Cluster) Deployments() []DeploymentSummary {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]DeploymentSummary, 0, len(c.deployments))
	for _, d := range c.deployments {
		status, done := rolloutStatus(d)
		out = append(out, DeploymentSummary{
			Namespace: d.Namespace, Name: d.Name,
			Replicas:  model.DesiredReplicas(d),
			Total:     d.Status.Replicas,
			Updated:   d.Status.UpdatedReplicas,
			Available: d.Status.AvailableReplicas,
			Paused:    d.Spec.Paused,
			Status:    status,
			Done:      done,
			Failed:    failed(d),
			Held:      canaryHeldAt(d),
		})
	}
	slices.SortFunc(out, func(a, b DeploymentSummary) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	return out
}

// FirstDeployment is the Deployment a console opens on when none was named:
// the first by namespace and name in namespace ("": any). The console asks
// on every refresh until one is found — in a namespace without Deployments,
// for ever, as an -A console's kubeconfig namespace often is — so it reads
// names only, and walks them again only when a Deployment came or went.
func (c *Cluster) FirstDeployment(namespace string) (ns, name string, ok bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.first.mu.Lock()
	defer c.first.mu.Unlock()
	m := &c.first
	if !m.valid || m.set != c.deploymentSet || m.namespace != namespace {
		m.ns, m.name, m.ok = c.firstDeployment(namespace)
		m.valid, m.set, m.namespace = true, c.deploymentSet, namespace
	}
	return m.ns, m.name, m.ok
}

// firstMemo is FirstDeployment's last answer, for the set of Deployments
// it was worked out from. Its own lock: readers of the Cluster share theirs.
type firstMemo struct {
	mu        sync.Mutex
	valid     bool
	set       uint64
	namespace string
	ns, name  string
	ok        bool
}

func (c *Cluster) firstDeployment(namespace string) (ns, name string, ok bool) {
	for _, d := range c.deployments {
		if namespace != "" && d.Namespace != namespace {
			continue
		}
		if !ok || cmp.Or(strings.Compare(d.Namespace, ns), strings.Compare(d.Name, name)) < 0 {
			ns, name, ok = d.Namespace, d.Name, true
		}
	}
	return ns, name, ok
}

// StatusLine is a deployment's line in rollscope's plain output, the same
// embedded and live: "deployment/frontend 25 desired · 26 total · 3 updated
// · 23 available — Waiting for deployment "frontend" rollout to finish: ...",
// with PAUSED after the name of a paused deployment.
func StatusLine(d DeploymentSummary) string {
	paused := ""
	if d.Paused {
		paused = " PAUSED"
	}
	return fmt.Sprintf("deployment/%s%s %d desired · %d total · %d updated · %d available — %s",
		d.Name, paused, d.Replicas, d.Total, d.Updated, d.Available, d.Status)
}

// The Cluster keeps its Deployments itself (store.go): their rollout view
// reads their ReplicaSets. Their fleet row is here.
var _ = addKind(kind.Deployment, workloadKind{
	held: func(c *Cluster, k fleetKey) (kind.Workload, bool) {
		return kind.Of(c.deployments[objectKey(k.namespace, k.name)])
	},
	row: func(c *Cluster, k fleetKey, w kind.Workload, now time.Time) (fleetEntry, bool) {
		return c.deploymentFleet(k, w.Object().(*appsv1.Deployment), now), true
	},
})

// newReplicaSet is FindNewReplicaSet, from e when d and rss hold the same
// templates as when it was found: the same objects, or the same ones (by
// UID) whose templates are unchanged. The API server moves an object's
// generation on every change of its spec, template included, and never on
// a status write, so a rollout's stream of status updates — new objects
// each time — does not compare templates again. A ReplicaSet scaled (a new
// generation) is compared with its own last version only: the watch shares
// one decoded template between the versions that carry it, so that
// comparison ends at the first shared slice, where comparing it with the
// Deployment's template walks every container. The ReplicaSet returned is
// always one of rss, with its status as it is now.
func (e *fleetEntry) newReplicaSet(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	if e == nil || e.d == nil || !sameSpec(&e.d.ObjectMeta, &d.ObjectMeta) || len(e.rss) != len(rss) {
		return model.FindNewReplicaSet(d, rss)
	}
	var found *appsv1.ReplicaSet
	for i, rs := range rss {
		was := e.rss[i]
		if rs == nil || was == nil || !sameSpec(&was.ObjectMeta, &rs.ObjectMeta) && !sameTemplate(was, rs) {
			return model.FindNewReplicaSet(d, rss)
		}
		if e.newRS != nil && rs.UID == e.newRS.UID {
			found = rs
		}
	}
	return found
}

// sameTemplate reports whether rs is a later version of was (the same UID)
// running the same pod template.
func sameTemplate(was, rs *appsv1.ReplicaSet) bool {
	return was.UID != "" && was.UID == rs.UID && equality.Semantic.DeepEqual(&was.Spec.Template, &rs.Spec.Template)
}

// sameSpec reports whether b is a (the same or a later) version of a with
// the same spec: the same UID and generation. An object without a
// generation (one the API never stored) has only its own pointer to go by.
func sameSpec(a, b *metav1.ObjectMeta) bool {
	if a == b {
		return true
	}
	return a.UID != "" && a.UID == b.UID && a.Generation > 0 && a.Generation == b.Generation
}

func (c *Cluster) deploymentFleet(k fleetKey, d *appsv1.Deployment, now time.Time) fleetEntry {
	rss := c.ownedReplicaSets(d)
	newRS := c.fleetBook.entries[k].newReplicaSet(d, rss)
	status, done := rolloutStatus(d)
	r := FleetRow{
		Namespace: d.Namespace, Kind: kind.Deployment, Name: d.Name,
		Revision:  revisionOrZero(d),
		Images:    containerImages(&d.Spec.Template),
		Desired:   model.DesiredReplicas(d),
		Updated:   d.Status.UpdatedReplicas,
		Available: d.Status.AvailableReplicas,
		Since:     d.CreationTimestamp.Time,
	}
	evidence := d.CreationTimestamp.Time
	if newRS != nil {
		r.Since = newRS.CreationTimestamp.Time
		r.ChangeCause = changeCause(newRS)
		if rev := revisionOrZero(newRS); rev > 0 {
			r.Revision = rev
		}
		evidence = later(evidence, r.Since)
	}
	if t := c.fleetBook.revisedAt[k]; t.After(r.Since) {
		// A rollback reuses an old ReplicaSet: its rollout began when the
		// revision moved, not when that ReplicaSet was made.
		r.Since = t
	}
	if p := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); p != nil {
		// The controller moves lastUpdateTime when the rollout progresses.
		evidence = later(evidence, p.LastUpdateTime.Time)
	}
	r.Changed = c.moved(k, evidence)
	if !done {
		r.From = rollingFrom(d, rss, newRS)
	}
	owners := make([]types.UID, len(rss))
	for i, rs := range rss {
		owners[i] = rs.UID
	}
	pods := c.scanFleetPods(owners, d.Namespace)
	canary, isCanary, _ := model.ReadCanary(d)
	isCanary = isCanary && model.CanaryCurrent(d, canary)
	e := fleetEntry{d: d, rss: rss, newRS: newRS, uid: d.UID}
	var line string
	var why hold
	if !isCanary && c.watch.HoldsPods(d.Namespace) {
		// A canary's hold is its technique, not a blocker (RolloutView does
		// the same). Without the namespace's pods (a fleet that watches
		// only the pods it needs) the line would read pods it does not
		// have as none: kubectl's own sentence says what is known.
		line, why = c.diagnose(d, rss, newRS, now)
		e.podsMatter = !done
	}
	_, _, deadline := model.RolloutStatus(d, 0)
	switch {
	case deadline != nil:
		// kubectl's sentence says only that it failed; the line says what
		// held it too.
		r.State, r.Why = FleetFailed, line
		if r.Why == "" {
			r.Why = status
		}
	case isCanary && canary.State.Phase == model.CanaryFailed:
		r.State, r.Why = FleetStuck, fmt.Sprintf("canary step %d/%d: gate failed — %s (promote or abort)", canary.State.Step, canary.Plan.Last(), canary.State.Gate)
	case isCanary && canary.State.Phase == model.CanaryInconclusive:
		r.State, r.Why = FleetStuck, fmt.Sprintf("canary step %d/%d: %s (promote or abort)", canary.State.Step, canary.Plan.Last(), canary.State.Gate)
	case why == holdStuck:
		r.State, r.Why = FleetStuck, line
	case pods.pull != nil:
		r.State, r.Why = FleetStuck, pods.pullWhy()
	case why == holdCrash:
		r.State, r.Why = FleetCrashLooping, line
	case pods.crash != nil:
		r.State, r.Why = FleetCrashLooping, pods.crashWhy()
	case d.Spec.Paused:
		r.State, r.Why = FleetPaused, pausedLine(d)
	case isCanary:
		r.State, r.Why = FleetCanary, canaryWhy(canary)
	case pods.moving(c, k, done, availabilityOnly(d)):
		r.State, r.Why = FleetNodeRoll, "its pods are moving off nodes being drained"
	case !done:
		r.State, r.Why, e.waits = FleetRolling, line, true
		if r.Why == "" {
			r.Why = status
		}
	default:
		r.State = FleetComplete
	}
	r.Word = r.State.String()
	if r.State == FleetCanary {
		r.Word = fmt.Sprintf("canary step %d/%d", canary.State.Step, canary.Plan.Last())
	}
	// Only what time fixes counts with the clock ("not ready for 12s").
	// A failed rollout's line keeps its cause, which may count too.
	e.row, e.clocked = r, r.State == FleetRolling && why == holdWaits || r.State == FleetFailed && clockWords.MatchString(r.Why)
	return e
}

// availabilityOnly reports whether all that is left of d's rollout is
// replacing pods: every pod it has runs the current template, as after a
// pod was evicted from a drained node (its replacement may not even be
// created yet, when the updated count is short too).
func availabilityOnly(d *appsv1.Deployment) bool {
	s := d.Status
	return s.ObservedGeneration >= d.Generation && s.Replicas <= s.UpdatedReplicas
}

// diagnose is the blocker line with its kind, reading only the nodes a
// budget holds a drain on.
func (c *Cluster) diagnose(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, now time.Time) (string, hold) {
	scan := c.scanTallies(d.Namespace, rss)
	isOurs := func(pod string) bool {
		pe := c.pods[objectKey(d.Namespace, pod)]
		return pe != nil && slices.ContainsFunc(rss, func(rs *appsv1.ReplicaSet) bool { return pe.facts.owner == rs.UID })
	}
	var nodes []*corev1.Node
	for _, n := range c.fleetBook.blockedNodes {
		nodes = append(nodes, n)
	}
	eventsOf := func(pod string) []*corev1.Event { return c.podEvents(d.Namespace, pod) }
	return diagnose(rolloutParts{d: d, rss: rss, nodes: nodes, eventsOf: eventsOf, now: now, newRS: newRS, newKnown: true}, scan, isOurs)
}

func canaryWhy(cn model.Canary) string {
	step := cn.Plan.Step(cn.State.Step)
	switch {
	case cn.State.Phase == model.CanaryRolling:
		return "last step: rolling out on the deployment's own strategy"
	case step.Hold == model.CanaryHoldPause:
		return model.Plural(step.Pods, "pod") + " on the new version, holding for promote"
	case step.Hold != "":
		return fmt.Sprintf("%s on the new version, holding %s", model.Plural(step.Pods, "pod"), step.Hold)
	}
	return model.Plural(step.Pods, "pod") + " on the new version"
}

// rollingFrom is the images of the newest old ReplicaSet that still has
// pods, when they differ from the deployment's.
func rollingFrom(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) []string {
	var from *appsv1.ReplicaSet
	for _, rs := range rss {
		if rs == newRS || rs.Status.Replicas == 0 {
			continue
		}
		if from == nil || revisionOrZero(rs) > revisionOrZero(from) {
			from = rs
		}
	}
	if from == nil {
		return nil
	}
	return differentImages(containerImages(&from.Spec.Template), containerImages(&d.Spec.Template))
}
