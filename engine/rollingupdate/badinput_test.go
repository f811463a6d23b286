package rollingupdate_test

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	. "rollscope/engine/rollingupdate"
)

func webRC(image string, annotations map[string]string) *corev1.ReplicationController {
	n := int32(replicas)
	return &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web", Annotations: annotations},
		Spec: corev1.ReplicationControllerSpec{
			Replicas: &n,
			Selector: map[string]string{"app": "web"},
			Template: &corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: image}}},
			},
		},
	}
}

// twoContainers is web with a sidecar: --image alone does not say which
// container changes.
func twoContainers() *corev1.ReplicationController {
	rc := webRC(oldImage, nil)
	rc.Spec.Template.Spec.Containers = append(rc.Spec.Template.Spec.Containers, corev1.Container{Name: "sidecar", Image: "busybox:1.36"})
	return rc
}

// TestBadInputIsRefusedWithoutWrites: each refusal names the problem and
// what to do, is marked as the request's fault or as what is not there,
// and writes nothing.
func TestBadInputIsRefusedWithoutWrites(t *testing.T) {
	next := webRC(newImage, map[string]string{SourceAnnotation: "web:uid-web", DesiredAnnotation: "4"})
	next.Name = "web-next"
	for _, tc := range []struct {
		name    string
		objects []*corev1.ReplicationController
		req     Request
		want    string
	}{
		{"unknown controller", nil, Request{Old: "nope", Image: newImage}, `not there: replicationcontroller "nope" not found in namespace "default"`},
		{"same image without a pull policy", []*corev1.ReplicationController{webRC(oldImage, nil)}, Request{Old: "web", Image: oldImage},
			"--image-pull-policy (Always|Never|IfNotPresent) must be given"},
		{"abort with no next controller", []*corev1.ReplicationController{webRC(oldImage, nil)}, Request{Old: "web", Image: newImage, Rollback: true},
			`not there: there is no rolling update in progress for replicationcontroller "web", so there is nothing to roll back: to go back to an older image, start a new rolling update with the old image`},
		{"abort of an update whose next controller is gone", []*corev1.ReplicationController{webRC(oldImage, map[string]string{NextAnnotation: "web-next", OriginalAnnotation: "4"})},
			Request{Old: "web", Rollback: true}, `not there: there is no rolling update in progress from replicationcontroller "web" to "web-next" (it does not exist)`},
		{"another update in progress", []*corev1.ReplicationController{webRC(oldImage, map[string]string{NextAnnotation: "web-next", OriginalAnnotation: "4"}), next},
			Request{Old: "web", Image: "nginx:1.29"}, "Found existing in-progress update to image (nginx:1.27).\nEither continue in-progress update with --image=nginx:1.27 or rollback with --rollback"},
		{"a named next controller of this update continues", []*corev1.ReplicationController{webRC(oldImage, nil), next},
			Request{Old: "web", Next: "web-next", Image: newImage, DeploymentKey: "track"}, ""},
		{"no container of that name", []*corev1.ReplicationController{webRC(oldImage, nil)}, Request{Old: "web", Image: newImage, Container: "php"},
			`the pod template has no container "php"`},
		{"several containers and none named", []*corev1.ReplicationController{twoContainers()}, Request{Old: "web", Image: newImage},
			"must specify container to update when updating a multi-container pod: the pod template has nginx, sidecar; give --container"},
		{"no image and nothing in progress", []*corev1.ReplicationController{webRC(oldImage, nil)}, Request{Old: "web"}, "give --image to start one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := fake.NewSimpleClientset()
			for _, rc := range tc.objects {
				if _, err := client.CoreV1().ReplicationControllers("default").Create(context.Background(), rc, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			client.ClearActions()
			u := &Updater{Client: client, Namespace: "default", Now: time.Now}
			_, err := u.Step(context.Background(), tc.req, &Session{})
			if tc.want == "" {
				// The next controller's update-source-id is web's: it is
				// this update's, so it continues (a write is expected).
				if err != nil {
					t.Fatalf("continuing an update: %v", err)
				}
				return
			}
			// What the cluster does not hold is not the request's fault
			// (exit 1, not 2): "not there: " marks those cases.
			want, notThere := strings.CutPrefix(tc.want, "not there: ")
			if err == nil || IsBadRequest(err) == notThere || IsNotThere(err) != notThere || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v (bad request %v, not there %v), want %q", err, IsBadRequest(err), IsNotThere(err), tc.want)
			}
			for _, a := range client.Actions() {
				if a.GetVerb() != "get" && a.GetVerb() != "list" {
					t.Errorf("a refused request wrote: %s %s", a.GetVerb(), a.GetResource().Resource)
				}
			}
		})
	}
}

// TestForeignNextControllerIsRefused: a next controller that says it
// belongs to another source is not taken over.
func TestForeignNextControllerIsRefused(t *testing.T) {
	next := webRC(newImage, map[string]string{SourceAnnotation: "other:uid-other", DesiredAnnotation: "4"})
	next.Name = "web-next"
	client := fake.NewSimpleClientset(webRC(oldImage, nil), next)
	u := &Updater{Client: client, Namespace: "default", Now: time.Now}
	_, err := u.Step(context.Background(), Request{Old: "web", Next: "web-next", Image: newImage}, &Session{})
	if !IsBadRequest(err) || !strings.Contains(err.Error(), "Missing/unexpected annotations for controller web-next, expected web:uid-web : other:uid-other") {
		t.Fatalf("got %v", err)
	}
}

// TestPartialRolloutWithoutAnnotationsIsAdopted: both controllers exist but
// the next one lost its annotations (an older tool, a hand edit): the
// desired size comes from the old controller and the update goes on.
func TestPartialRolloutWithoutAnnotationsIsAdopted(t *testing.T) {
	next := webRC(newImage, nil)
	next.Name = "web-next"
	client := fake.NewSimpleClientset(webRC(oldImage, map[string]string{OriginalAnnotation: "4"}), next)
	u := &Updater{Client: client, Namespace: "default", Now: time.Now}
	if _, err := u.Step(context.Background(), Request{Old: "web", Next: "web-next", Image: newImage}, &Session{}); err != nil {
		t.Fatal(err)
	}
	got, err := client.CoreV1().ReplicationControllers("default").Get(context.Background(), "web-next", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Annotations[DesiredAnnotation] != "4" || got.Annotations[SourceAnnotation] != "web:uid-web" {
		t.Errorf("annotations %v, want desired-replicas 4 and update-source-id web:uid-web", got.Annotations)
	}
}

// TestBadRequestAnnotationIsReported: the controller reports an annotation
// it cannot read instead of retrying for ever.
func TestBadRequestAnnotationIsReported(t *testing.T) {
	if _, err := ParseRequest("web", `{"image": 3}`); err == nil || !strings.Contains(err.Error(), RequestAnnotation) {
		t.Fatalf("got %v", err)
	}
	r, err := ParseRequest("web", Request{Image: newImage, UpdatePeriod: Duration(5 * time.Second), Rollback: true}.Annotation())
	if err != nil || r.Old != "web" || r.Image != newImage || time.Duration(r.UpdatePeriod) != 5*time.Second || !r.Rollback {
		t.Fatalf("round trip: %+v, %v", r, err)
	}
}
