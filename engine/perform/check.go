package perform

import (
	"context"
	"errors"
	"fmt"

	"rollscope/kube/objects"
	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/kind"
)

// The dialogs' checks, in the words the console shows under the field.

func checkImage(r action.Request) error {
	if r.Container == "" {
		return errors.New("pick a container first")
	}
	return model.CheckImage(r.Image)
}

func checkEnv(r action.Request) error {
	name, _, remove, err := r.EnvChange()
	if err != nil {
		return err
	}
	if remove {
		// kubectl checks only the names it sets: one it removes may be
		// any the API server took.
		return model.CheckDeclaredEnvName(name)
	}
	return model.CheckEnvName(name)
}

// checkRevision refuses a revision the undo picker cannot offer; scripts,
// which may write 0 for the previous revision, skip it.
func checkRevision(revision int64) error {
	if revision < 1 {
		return fmt.Errorf("revision %d does not exist — revisions are 1 or more", revision)
	}
	return nil
}

// checkScale refuses a negative count and, on a cluster in this process
// (Config.InProcess), a scale adding more replicas than the process has
// memory left for: the embedded cluster would be killed half way through
// it, saying nothing. The count the scale adds is read from the API now,
// in this process; when the workload cannot be read the send says why.
func (c *Cluster) checkScale(r action.Request) error {
	if err := action.CheckReplicas(int64(r.Replicas)); err != nil {
		return err
	}
	if !c.cfg.InProcess || c.cfg.Room == nil {
		return nil
	}
	now, ok := c.replicasNow(context.Background(), r)
	if !ok {
		return nil
	}
	if more := int(r.Replicas) - int(now); more > 0 {
		if err := c.cfg.Room(more); err != nil {
			return fmt.Errorf("cannot scale %s/%s from %d to %s in the embedded cluster, which runs in this process: %w — ask for fewer",
				r.Spec().On, r.Name, now, model.Plural(r.Replicas, "replica"), err)
		}
	}
	return nil
}

// checkRehearsal refuses a forecast whose rehearsal, on a copy in this
// process whichever cluster the console shows, would hold more pods than
// the process has memory left for: the replicas a scale asks for, or the
// workload's own and, when the request rolls them, its surge. The action
// itself is not refused for it.
func (c *Cluster) checkRehearsal(ctx context.Context, r action.Request) error {
	if c.cfg.Room == nil {
		return nil
	}
	n, surge := r.Replicas, int32(0)
	if r.Spec().Verb != kind.Scale && r.Action != action.Scale {
		w, ok := c.workloadNow(ctx, r)
		if !ok {
			return nil
		}
		if n, ok = w.Replicas(); !ok {
			return nil
		}
		if r.Spec().StartsRollout {
			surge = w.Surge()
		}
	}
	if err := c.cfg.Room(int(n + surge)); err != nil {
		what := model.Plural(n, "replica")
		if surge > 0 {
			what += " and the " + model.Plural(surge, "pod") + " of its surge"
		}
		return fmt.Errorf("a rehearsal of %s does not fit in this process: %w — y still sends it", what, err)
	}
	return nil
}

// checkSurge refuses, on a cluster in this process, a request that rolls
// the pods when the rollout's surge — the pods a new template brings up at
// once above those the workload runs (maxSurge, a blue/green preview set)
// — needs more memory than the process has left: the embedded cluster
// would be killed half way through the rollout, saying nothing. The pods
// it runs now are held already.
func (c *Cluster) checkSurge(r action.Request) error {
	// Asked before roomForSurge does, so that a cluster elsewhere is not
	// read for nothing on every check a dialog makes.
	if !r.Spec().StartsRollout || !c.cfg.InProcess || c.cfg.Room == nil {
		return nil
	}
	w, ok := c.workloadNow(context.Background(), r)
	if !ok {
		return nil
	}
	return c.roomForSurge(r.Object(), w.Surge())
}

// roomForSurge refuses, on a cluster in this process, a rollout of object
// that brings up surge pods at once beside those it runs when the process
// has not the memory left for them.
func (c *Cluster) roomForSurge(object string, surge int32) error {
	if surge <= 0 || !c.cfg.InProcess || c.cfg.Room == nil {
		return nil
	}
	if err := c.cfg.Room(int(surge)); err != nil {
		return fmt.Errorf("rolling %s brings up to %s more at once in the embedded cluster, which runs in this process: %w — lower its maxSurge or scale it down first",
			object, model.Plural(surge, "pod"), err)
	}
	return nil
}

// replicasNow is spec.replicas of the workload r acts on, as the API
// serves it now; false for a kind without it (a DaemonSet) or a workload
// that cannot be read (what reads it next says why).
func (c *Cluster) replicasNow(ctx context.Context, r action.Request) (int32, bool) {
	w, ok := c.workloadNow(ctx, r)
	if !ok {
		return 0, false
	}
	return w.Replicas()
}

// workloadNow is the workload r acts on, as the API serves it now; false
// for a request on another object or a workload that cannot be read.
func (c *Cluster) workloadNow(ctx context.Context, r action.Request) (kind.Workload, bool) {
	row, ok := objects.For(kind.Kind(r.Spec().On))
	if !ok {
		return nil, false
	}
	w, err := row.Get(ctx, c.cfg.Client, r.Namespace, r.Name)
	if err != nil {
		return nil, false
	}
	return w, true
}
