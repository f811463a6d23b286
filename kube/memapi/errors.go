package memapi

import (
	"errors"
	"fmt"
	"path"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// optimisticLockMessage is the real server's text for a stale resourceVersion.
const optimisticLockMessage = "the object has been modified; please apply your changes to the latest version and try again"

func staleVersion(k *kind, name string) error {
	return apierrors.NewConflict(k.groupResource(), name, errors.New(optimisticLockMessage))
}

// preconditionFailed reports a failed UID or resourceVersion precondition
// the way the real server's storage layer words it.
func preconditionFailed(k *kind, m metav1.Object, detail string) error {
	key := path.Join("/registry", k.gvr.Resource, m.GetNamespace(), m.GetName())
	return apierrors.NewConflict(k.groupResource(), m.GetName(),
		fmt.Errorf("StorageError: invalid object, Code: 4, Key: %s, ResourceVersion: 0, AdditionalErrorMsg: %s", key, detail))
}

// checkPreconditions enforces the UID and resourceVersion a write was made
// against; empty values mean "any".
func checkPreconditions(k *kind, stored metav1.Object, uid types.UID, resourceVersion string) error {
	if uid != "" && uid != stored.GetUID() {
		return preconditionFailed(k, stored, fmt.Sprintf("Precondition failed: UID in precondition: %v, UID in object meta: %v", uid, stored.GetUID()))
	}
	if resourceVersion != "" && resourceVersion != stored.GetResourceVersion() {
		return staleVersion(k, stored.GetName())
	}
	return nil
}

// checkDeletePreconditions enforces DeleteOptions.Preconditions.
func checkDeletePreconditions(k *kind, stored metav1.Object, p *metav1.Preconditions) error {
	if p == nil {
		return nil
	}
	if p.UID != nil && *p.UID != stored.GetUID() {
		return preconditionFailed(k, stored, fmt.Sprintf("Precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, stored.GetUID()))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != stored.GetResourceVersion() {
		return preconditionFailed(k, stored, fmt.Sprintf("Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *p.ResourceVersion, stored.GetResourceVersion()))
	}
	return nil
}

// checkDeleteOptions applies the real server's checks of DeleteOptions.
func checkDeleteOptions(opts *metav1.DeleteOptions) error {
	if deleteOptionsValid(opts) {
		return nil
	}
	if errs := metav1validation.ValidateDeleteOptions(opts); len(errs) > 0 {
		return apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: "DeleteOptions"}, "", errs)
	}
	return nil
}

// checkDryRun refuses dryRun values other than "All", as the real server does.
func checkDryRun(kindName string, dryRun []string) error {
	if len(dryRun) == 0 {
		return nil // valid, and asked of every request: no path to build
	}
	if errs := metav1validation.ValidateDryRun(field.NewPath("dryRun"), dryRun); len(errs) > 0 {
		return apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: kindName}, "", errs)
	}
	return nil
}

// isDryRun reports whether a request asked for dryRun=All.
func isDryRun(dryRun []string) bool { return len(dryRun) > 0 }
