package model_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
	"rollscope/model/upstreamcases"
)

func TestUpstreamKubectlRolloutStatus(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "kubectl_rollout_status") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				Name         string
				Generation   int64
				SpecReplicas int32
				Status       appsv1.DeploymentStatus
				Revision     int64
			}
			var want struct {
				Message string
				Done    bool
				Error   *string
			}
			c.Decode(t, &in, &want)
			d := &appsv1.Deployment{}
			d.Name, d.Generation, d.Status = in.Name, in.Generation, in.Status
			d.Spec.Replicas = &in.SpecReplicas
			msg, done, err := model.RolloutStatus(d, in.Revision)
			if msg != want.Message || done != want.Done {
				t.Errorf("RolloutStatus = %q, %v; want %q, %v", msg, done, want.Message, want.Done)
			}
			switch {
			case want.Error == nil && err != nil:
				t.Errorf("RolloutStatus error %v, want none", err)
			case want.Error != nil && (err == nil || err.Error() != *want.Error):
				t.Errorf("RolloutStatus error %v, want %q", err, *want.Error)
			}
		})
	}
}

func TestUpstreamKubectlRollbackPatch(t *testing.T) {
	for _, c := range upstreamcases.ByGroup(t, "kubectl_rollback_patch") {
		t.Run(c.Name(), func(t *testing.T) {
			var in struct {
				PodTemplate corev1.PodTemplateSpec
				Annotations map[string]string
			}
			var want struct {
				PatchType string
				Patch     string
			}
			c.Decode(t, &in, &want)
			if want.PatchType != "application/json-patch+json" {
				t.Fatalf("case expects patch type %q; RollbackPatch produces JSON patches only", want.PatchType)
			}
			got, err := model.RestorePatch(&in.PodTemplate, in.Annotations)
			if err != nil || string(got) != want.Patch {
				t.Errorf("RestorePatch = %s, %v\nwant %s", got, err, want.Patch)
			}

			// The same patch through RollbackPatch: the ReplicaSet carries the
			// template (with its hash label, which must go) and annotations;
			// the deployment's skip-list annotations are kept.
			rs := &appsv1.ReplicaSet{}
			rs.Annotations = in.Annotations
			rs.Spec.Template = *in.PodTemplate.DeepCopy()
			rs.Spec.Template.Labels = map[string]string{model.PodTemplateHashLabel: "abc"}
			d := &appsv1.Deployment{}
			got, err = model.RollbackPatch(d, rs)
			if err != nil || string(got) != want.Patch {
				t.Errorf("RollbackPatch = %s, %v\nwant %s", got, err, want.Patch)
			}
		})
	}
}
