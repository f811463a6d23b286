package memapi_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/kube/memapi"
)

// podCreator is engine/control.PodCreator, which memapi may not import.
type podCreator interface {
	CreateOwned(ctx context.Context, pod *corev1.Pod, opts metav1.CreateOptions) (string, error)
}

// A creation that gives up the pod keeps Create's contract: a generated
// name is drawn and answered, the pod is defaulted, stored and readable, and
// a name that is taken is refused.
func TestCreateOwnedStoresThePodItGivesUp(t *testing.T) {
	c := memapi.New(memapi.Options{Seed: 1})
	pods := c.Client().CoreV1().Pods("default")
	w, ok := pods.(podCreator)
	if !ok {
		t.Fatalf("the embedded pod client (%T) cannot create a pod it is given", pods)
	}
	p := pod("", "a")
	p.GenerateName = "web-"
	name, err := w.CreateOwned(ctx, p, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(name) <= len("web-") || name[:4] != "web-" {
		t.Fatalf("generated name %q, want web-<suffix>", name)
	}
	got, err := pods.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.UID == "" || got.ResourceVersion == "" || got.CreationTimestamp.IsZero() || got.Spec.RestartPolicy == "" {
		t.Fatalf("stored pod not filled in by the server: uid %q rv %q created %v restartPolicy %q", got.UID, got.ResourceVersion, got.CreationTimestamp, got.Spec.RestartPolicy)
	}
	again := pod(name, "a")
	if _, err := w.CreateOwned(ctx, again, metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("creating %s twice: %v, want AlreadyExists", name, err)
	}
}
