package daemonset

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/scheduler"
	"rollscope/model"
)

// podRef is a daemon pod as the cache holds it; never modified.
type podRef = *corev1.Pod

// notReadyTaint stands for the taint the node lifecycle controller puts on a
// node that is not Ready.
var notReadyTaint = corev1.Taint{Key: corev1.TaintNodeNotReady, Effect: corev1.TaintEffectNoSchedule}

// shouldRun is NodeShouldRunDaemonPod: whether a new daemon pod belongs on
// node, and whether one already there may keep running.
func shouldRun(node *corev1.Node, ds *appsv1.DaemonSet) (run, keep bool) {
	return newPlacement(ds).on(node)
}

// placement is the daemon pod NodeShouldRunDaemonPod judges nodes by (the
// template with the daemon tolerations), built once per sync: a DaemonSet
// on a thousand nodes is judged a thousand times.
type placement struct {
	ds  *appsv1.DaemonSet
	pod *corev1.Pod
}

func newPlacement(ds *appsv1.DaemonSet) placement {
	pod := &corev1.Pod{ObjectMeta: ds.Spec.Template.ObjectMeta, Spec: *ds.Spec.Template.Spec.DeepCopy()}
	model.AddDaemonPodTolerations(&pod.Spec)
	return placement{ds: ds, pod: pod}
}

func (pl placement) on(node *corev1.Node) (run, keep bool) {
	if n := pl.ds.Spec.Template.Spec.NodeName; n != "" && n != node.Name {
		return false, false
	}
	// Node affinity and selector do not look at spec.nodeName, so the pod
	// is not copied per node.
	if !scheduler.FitsNodeChoice(pl.pod, node) {
		return false, false
	}
	taints := node.Spec.Taints
	if !model.NodeReady(node) && !slices.ContainsFunc(taints, func(t corev1.Taint) bool { return t.MatchTaint(&notReadyTaint) }) {
		taints = append(slices.Clone(taints), notReadyTaint)
	}
	tolerations := pl.pod.Spec.Tolerations
	if scheduler.UntoleratedTaint(taints, tolerations, corev1.TaintEffectNoSchedule, corev1.TaintEffectNoExecute) != nil {
		return false, scheduler.UntoleratedTaint(taints, tolerations, corev1.TaintEffectNoExecute) == nil
	}
	return true, true
}

// verdicts judges every node once for a sync.
type verdict struct{ run, keep bool }

func verdicts(ds *appsv1.DaemonSet, nodes []*corev1.Node) map[string]verdict {
	pl := newPlacement(ds)
	out := make(map[string]verdict, len(nodes))
	for _, n := range nodes {
		run, keep := pl.on(n)
		out[n.Name] = verdict{run, keep}
	}
	return out
}

// byCreation orders pods oldest first, then running before pending, then by
// name (podByCreationTimestampAndPhase).
func byCreation(pods []podRef) {
	sort.SliceStable(pods, func(i, j int) bool {
		a, b := pods[i], pods[j]
		if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
			return a.CreationTimestamp.Before(&b.CreationTimestamp)
		}
		if (a.Status.Phase == corev1.PodRunning) != (b.Status.Phase == corev1.PodRunning) {
			return a.Status.Phase == corev1.PodRunning
		}
		return a.Name < b.Name
	})
}

// podsShouldBeOnNode decides one node: create a pod there, or which of its
// pods to delete.
func (c *Controller) podsShouldBeOnNode(ds *appsv1.DaemonSet, node *corev1.Node, v verdict, pods []podRef, hash string) (create bool, del []string) {
	run, keep := v.run, v.keep
	switch {
	case run && len(pods) == 0:
		return true, nil
	case keep:
		var running []podRef
		for _, p := range pods {
			if p.DeletionTimestamp != nil {
				continue
			}
			switch p.Status.Phase {
			case corev1.PodFailed:
				if c.env.Events != nil {
					c.env.Events.Eventf(ds, corev1.EventTypeWarning, "FailedDaemonPod", "Found failed daemon pod %s/%s on node %s, will try to kill it", p.Namespace, p.Name, node.Name)
				}
				del = append(del, p.Name)
			case corev1.PodSucceeded:
				del = append(del, p.Name)
			default:
				running = append(running, p)
			}
		}
		surge := model.DaemonSetAllowsSurge(ds)
		if !surge {
			if len(running) <= 1 {
				return false, del
			}
			byCreation(running)
			for _, p := range running[1:] {
				del = append(del, p.Name)
			}
			return false, del
		}
		if len(running) <= 1 {
			return len(running) == 0 && run, del
		}
		// Surging: keep an old and a new pod only while the new one is on
		// its way and the old one still serves.
		generation, _ := model.DaemonSetTemplateGeneration(ds)
		var oldestNew, oldestOld podRef
		byCreation(running)
		for _, p := range running {
			if model.IsDaemonPodUpdated(p, hash, generation) {
				if oldestNew == nil {
					oldestNew = p
					continue
				}
			} else if oldestOld == nil {
				oldestOld = p
				continue
			}
			del = append(del, p.Name)
		}
		if oldestNew != nil && oldestOld != nil {
			if !model.IsPodReady(oldestOld) || model.IsPodAvailable(oldestNew, ds.Spec.MinReadySeconds, c.env.Clock.Now()) {
				del = append(del, oldestOld.Name)
			}
		}
		return false, del
	case !keep:
		for _, p := range pods {
			if p.DeletionTimestamp == nil {
				del = append(del, p.Name)
			}
		}
	}
	return false, del
}

// manage creates the missing daemon pods and deletes the ones that should
// not be there, including unbound pods meant for nodes that are gone.
func (c *Controller) manage(ctx context.Context, key string, ds *appsv1.DaemonSet, nodes []*corev1.Node, judged map[string]verdict, byNode map[string][]podRef, hash string) error {
	var createOn, del []string
	known := map[string]bool{}
	for _, n := range nodes {
		known[n.Name] = true
		create, d := c.podsShouldBeOnNode(ds, n, judged[n.Name], byNode[n.Name], hash)
		if create {
			createOn = append(createOn, n.Name)
		}
		del = append(del, d...)
	}
	for _, name := range slices.Sorted(maps.Keys(byNode)) {
		if known[name] {
			continue
		}
		for _, p := range byNode[name] {
			if p.Spec.NodeName == "" && p.DeletionTimestamp == nil {
				del = append(del, p.Name)
			}
		}
	}
	return c.syncNodes(ctx, key, ds, del, createOn, hash)
}

// burstReplicas caps the writes of one sync, as upstream's BurstReplicas.
const burstReplicas = 250

// syncNodes deletes pods and creates one on each node, creations in
// slow-start batches (1, 2, 4, …) that stop at the first failure.
func (c *Controller) syncNodes(ctx context.Context, key string, ds *appsv1.DaemonSet, del, createOn []string, hash string) error {
	createOn = createOn[:min(len(createOn), burstReplicas)]
	del = del[:min(len(del), burstReplicas)]
	c.exp.expect(key, len(createOn), del)
	generation, err := model.DaemonSetTemplateGeneration(ds)
	if err != nil {
		generation = nil
	}
	template := podTemplate(ds, generation, hash)
	var errs []error
	sent := 0
	for batch := 1; sent < len(createOn); batch = min(2*batch, len(createOn)-sent) {
		failed := false
		for _, node := range createOn[sent : sent+min(batch, len(createOn)-sent)] {
			if err := c.createPod(ctx, ds, template, node); err != nil {
				errs = append(errs, err)
				failed = true
			}
			sent++
		}
		if failed {
			break
		}
	}
	if skipped := len(createOn) - sent + len(errs); skipped > 0 {
		c.exp.lower(key, skipped, nil)
	}
	for _, name := range del {
		err := c.env.Client.CoreV1().Pods(ds.Namespace).Delete(ctx, name, metav1.DeleteOptions{})
		if err != nil {
			c.exp.lower(key, 0, []string{name})
			if c.env.Events != nil {
				c.env.Events.Eventf(ds, corev1.EventTypeWarning, "FailedDelete", "Error deleting: %v", err)
			}
			errs = append(errs, err)
			continue
		}
		if c.env.Events != nil {
			c.env.Events.Eventf(ds, corev1.EventTypeNormal, "SuccessfulDelete", "Deleted pod: %v", name)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("daemon set %s: %w", ds.Name, errs[0])
	}
	return nil
}

// podTemplate is CreatePodTemplate: the template with the daemon
// tolerations and the generation and hash labels.
func podTemplate(ds *appsv1.DaemonSet, generation *int64, hash string) *corev1.PodTemplateSpec {
	t := ds.Spec.Template.DeepCopy()
	model.AddDaemonPodTolerations(&t.Spec)
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	if generation != nil {
		t.Labels[model.DaemonPodTemplateGenerationLabel] = fmt.Sprint(*generation)
	}
	if hash != "" {
		t.Labels[model.RevisionHashLabel] = hash
	}
	return t
}

func (c *Controller) createPod(ctx context.Context, ds *appsv1.DaemonSet, t *corev1.PodTemplateSpec, node string) error {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       ds.Namespace,
			GenerateName:    ds.Name + "-",
			Labels:          maps.Clone(t.Labels),
			Annotations:     maps.Clone(t.Annotations),
			Finalizers:      slices.Clone(t.Finalizers),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(ds, controllerKind)},
		},
		Spec: *t.Spec.DeepCopy(),
	}
	p.Spec.Affinity = model.DaemonPodAffinity(p.Spec.Affinity, node)
	created, err := c.env.Client.CoreV1().Pods(ds.Namespace).Create(ctx, p, metav1.CreateOptions{})
	if err != nil {
		if c.env.Events != nil {
			c.env.Events.Eventf(ds, corev1.EventTypeWarning, "FailedCreate", "Error creating: %v", err)
		}
		return err
	}
	if c.env.Events != nil {
		c.env.Events.Eventf(ds, corev1.EventTypeNormal, "SuccessfulCreate", "Created pod: %v", created.Name)
	}
	return nil
}
