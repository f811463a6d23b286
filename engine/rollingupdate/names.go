package rollingupdate

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// updateHash is the deployment label value, and the suffix of a derived next
// controller's name, in kubectl 1.17's form: 32 hex digits of the MD5 of the
// controller's JSON, so that scripts and operators who know `foo-<md5>` and
// `<md5>-orig` find them. kubectl hashed the object as it read it, uid and
// resourceVersion included, so its value changes with every write and no
// other tool can reproduce it; this hashes only what stays fixed while the
// update runs — the old controller's name, namespace and uid, and the spec
// the hashed controller runs, without its size and the deployment label —
// so every step, and a run after a crash, derives the same value.
func updateHash(old *corev1.ReplicationController, spec corev1.ReplicationControllerSpec, key string) string {
	spec = *spec.DeepCopy()
	spec.Replicas = nil
	delete(spec.Selector, key)
	delete(spec.Selector, RenamingLabel)
	if spec.Template != nil {
		delete(spec.Template.Labels, key)
		delete(spec.Template.Labels, RenamingLabel)
	}
	b, err := json.Marshal(corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: old.Name, Namespace: old.Namespace, UID: old.UID},
		Spec:       spec,
	})
	if err != nil {
		// A ReplicationController always marshals; keep the promise of no
		// panics anyway with a value still unique to the controller.
		b = []byte(old.Namespace + "/" + old.Name + ":" + string(old.UID))
	}
	sum := md5.Sum(b)
	return hex.EncodeToString(sum[:])
}

// origValue is the deployment label value the old controller's pods take, in
// kubectl's form: its own hash with "-orig", which stays distinct from the
// next controller's even when only the pull policy changes.
func origValue(old *corev1.ReplicationController, key string) string {
	return updateHash(old, old.Spec, key) + "-orig"
}

// userAnnotations are rc's annotations without the update's own: what the
// user wrote, which the next controller, and the controller that remains,
// keep (kubectl copied the old controller's annotations too).
func userAnnotations(rc *corev1.ReplicationController) map[string]string {
	out := map[string]string{}
	for k, v := range rc.Annotations {
		out[k] = v
	}
	for _, a := range rolloutAnnotations {
		delete(out, a)
	}
	return out
}
