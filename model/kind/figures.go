package kind

import "rollscope/model"

// Figures are the workload's progress figures as the fleet compares them to
// tell whether a rollout moved: its generations and status counts, two to a
// word where they are 32-bit.

func (w deployment) Figures() [4]int64 {
	s := w.Status
	return [4]int64{w.Generation<<32 | s.ObservedGeneration, int64(s.Replicas), int64(s.UpdatedReplicas)<<32 | int64(s.ReadyReplicas), int64(s.AvailableReplicas)}
}

func (w replicationController) Figures() [4]int64 {
	s := w.Status
	return [4]int64{int64(model.RCReplicas(w.ReplicationController)), int64(s.Replicas), int64(s.ReadyReplicas), int64(s.AvailableReplicas)}
}

func (w statefulSet) Figures() [4]int64 {
	s := w.Status
	return [4]int64{w.Generation<<32 | s.ObservedGeneration, int64(s.Replicas), int64(s.UpdatedReplicas)<<32 | int64(s.ReadyReplicas), int64(s.AvailableReplicas)}
}

func (w daemonSet) Figures() [4]int64 {
	s := w.Status
	return [4]int64{w.Generation<<32 | s.ObservedGeneration, int64(s.DesiredNumberScheduled)<<32 | int64(s.CurrentNumberScheduled),
		int64(s.UpdatedNumberScheduled)<<32 | int64(s.NumberReady), int64(s.NumberAvailable)}
}
