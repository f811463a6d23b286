package perform

import (
	"context"
	"errors"
	"fmt"

	"rollscope/engine/actions"
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
	if err := actions.CheckReplicas(int64(r.Replicas)); err != nil {
		return err
	}
	if !c.cfg.InProcess || c.cfg.Room == nil {
		return nil
	}
	k := kind.Kind(r.Spec().On)
	row, ok := objects.For(k)
	if !ok {
		return nil
	}
	w, err := row.Get(context.Background(), c.cfg.Client, r.Namespace, r.Name)
	if err != nil {
		return nil
	}
	now, _ := w.Replicas()
	if more := int(r.Replicas) - int(now); more > 0 {
		if err := c.cfg.Room(more); err != nil {
			return fmt.Errorf("cannot scale %s/%s from %d to %s in the embedded cluster, which runs in this process: %w — ask for fewer",
				k, r.Name, now, model.Plural(r.Replicas, "replica"), err)
		}
	}
	return nil
}
