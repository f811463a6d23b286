package memapi

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// defaultPod applies the defaults of a Pod object: those of every pod spec
// plus the ones upstream keeps off templates (requests copied from limits,
// service links, host ports on the host network).
func defaultPod(p *corev1.Pod) {
	for _, list := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range list {
			r := &list[i].Resources
			if r.Limits == nil {
				continue
			}
			if r.Requests == nil {
				r.Requests = corev1.ResourceList{}
			}
			for name, q := range r.Limits {
				if _, ok := r.Requests[name]; !ok {
					r.Requests[name] = q.DeepCopy()
				}
			}
		}
	}
	if p.Spec.EnableServiceLinks == nil {
		p.Spec.EnableServiceLinks = ptrTo(corev1.DefaultEnableServiceLinks)
	}
	if p.Spec.HostNetwork {
		for _, list := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
			for i := range list {
				for j := range list[i].Ports {
					if list[i].Ports[j].HostPort == 0 {
						list[i].Ports[j].HostPort = list[i].Ports[j].ContainerPort
					}
				}
			}
		}
	}
	defaultPodSpec(&p.Spec)
}

// defaultPodSpec applies upstream's generated defaults of a pod spec, which
// run on pods and on every pod template.
func defaultPodSpec(s *corev1.PodSpec) {
	if s.DNSPolicy == "" {
		s.DNSPolicy = corev1.DNSClusterFirst
	}
	if s.RestartPolicy == "" {
		s.RestartPolicy = corev1.RestartPolicyAlways
	}
	if s.SecurityContext == nil {
		s.SecurityContext = &corev1.PodSecurityContext{}
	}
	if s.TerminationGracePeriodSeconds == nil {
		s.TerminationGracePeriodSeconds = ptrTo[int64](corev1.DefaultTerminationGracePeriodSeconds)
	}
	if s.SchedulerName == "" {
		s.SchedulerName = corev1.DefaultSchedulerName
	}
	for i := range s.Volumes {
		defaultVolume(&s.Volumes[i])
	}
	for i := range s.InitContainers {
		defaultContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		defaultContainer(&s.Containers[i])
	}
	for i := range s.EphemeralContainers {
		c := corev1.Container(s.EphemeralContainers[i].EphemeralContainerCommon)
		defaultContainer(&c)
		s.EphemeralContainers[i].EphemeralContainerCommon = corev1.EphemeralContainerCommon(c)
	}
	roundResources(s.Overhead)
}

func defaultContainer(c *corev1.Container) {
	if c.ImagePullPolicy == "" {
		if imageTag(c.Image) == "latest" {
			c.ImagePullPolicy = corev1.PullAlways
		} else {
			c.ImagePullPolicy = corev1.PullIfNotPresent
		}
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = corev1.ProtocolTCP
		}
	}
	for i := range c.Env {
		if from := c.Env[i].ValueFrom; from != nil {
			if from.FieldRef != nil && from.FieldRef.APIVersion == "" {
				from.FieldRef.APIVersion = "v1"
			}
			if from.FileKeyRef != nil && from.FileKeyRef.Optional == nil {
				from.FileKeyRef.Optional = ptrTo(false)
			}
		}
	}
	roundResources(c.Resources.Limits)
	roundResources(c.Resources.Requests)
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		defaultProbe(p)
	}
	if c.Lifecycle != nil {
		for _, h := range []*corev1.LifecycleHandler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
			if h != nil {
				defaultHTTPGet(h.HTTPGet)
			}
		}
	}
}

func defaultProbe(p *corev1.Probe) {
	if p == nil {
		return
	}
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	defaultHTTPGet(p.HTTPGet)
	if p.GRPC != nil && p.GRPC.Service == nil {
		p.GRPC.Service = ptrTo("")
	}
}

func defaultHTTPGet(h *corev1.HTTPGetAction) {
	if h == nil {
		return
	}
	if h.Path == "" {
		h.Path = "/"
	}
	if h.Scheme == "" {
		h.Scheme = corev1.URISchemeHTTP
	}
}

func defaultVolume(v *corev1.Volume) {
	src := &v.VolumeSource
	if *src == (corev1.VolumeSource{}) {
		src.EmptyDir = &corev1.EmptyDirVolumeSource{}
	}
	const defaultMode = int32(0o644)
	switch {
	case src.HostPath != nil && src.HostPath.Type == nil:
		src.HostPath.Type = ptrTo(corev1.HostPathUnset)
	case src.Secret != nil && src.Secret.DefaultMode == nil:
		src.Secret.DefaultMode = ptrTo(defaultMode)
	case src.ConfigMap != nil && src.ConfigMap.DefaultMode == nil:
		src.ConfigMap.DefaultMode = ptrTo(defaultMode)
	case src.ISCSI != nil && src.ISCSI.ISCSIInterface == "":
		src.ISCSI.ISCSIInterface = "default"
	}
	if src.DownwardAPI != nil {
		if src.DownwardAPI.DefaultMode == nil {
			src.DownwardAPI.DefaultMode = ptrTo(defaultMode)
		}
		defaultDownwardItems(src.DownwardAPI.Items)
	}
	if src.Projected != nil {
		if src.Projected.DefaultMode == nil {
			src.Projected.DefaultMode = ptrTo(defaultMode)
		}
		for i := range src.Projected.Sources {
			ps := &src.Projected.Sources[i]
			if ps.DownwardAPI != nil {
				defaultDownwardItems(ps.DownwardAPI.Items)
			}
			if ps.ServiceAccountToken != nil && ps.ServiceAccountToken.ExpirationSeconds == nil {
				ps.ServiceAccountToken.ExpirationSeconds = ptrTo[int64](3600)
			}
		}
	}
	if src.RBD != nil {
		defaultString(&src.RBD.RBDPool, "rbd")
		defaultString(&src.RBD.RadosUser, "admin")
		defaultString(&src.RBD.Keyring, "/etc/ceph/keyring")
	}
	if src.AzureDisk != nil {
		if src.AzureDisk.CachingMode == nil {
			src.AzureDisk.CachingMode = ptrTo(corev1.AzureDataDiskCachingReadWrite)
		}
		if src.AzureDisk.FSType == nil {
			src.AzureDisk.FSType = ptrTo("ext4")
		}
		if src.AzureDisk.ReadOnly == nil {
			src.AzureDisk.ReadOnly = ptrTo(false)
		}
		if src.AzureDisk.Kind == nil {
			src.AzureDisk.Kind = ptrTo(corev1.AzureSharedBlobDisk)
		}
	}
	if src.ScaleIO != nil {
		defaultString(&src.ScaleIO.StorageMode, "ThinProvisioned")
		defaultString(&src.ScaleIO.FSType, "xfs")
	}
	if src.Ephemeral != nil && src.Ephemeral.VolumeClaimTemplate != nil {
		defaultClaimSpec(&src.Ephemeral.VolumeClaimTemplate.Spec)
	}
}

func defaultDownwardItems(items []corev1.DownwardAPIVolumeFile) {
	for i := range items {
		if items[i].FieldRef != nil && items[i].FieldRef.APIVersion == "" {
			items[i].FieldRef.APIVersion = "v1"
		}
	}
}

func defaultClaimSpec(s *corev1.PersistentVolumeClaimSpec) {
	if s.VolumeMode == nil {
		s.VolumeMode = ptrTo(corev1.PersistentVolumeFilesystem)
	}
	roundResources(s.Resources.Limits)
	roundResources(s.Resources.Requests)
}

func defaultString(s *string, value string) {
	if *s == "" {
		*s = value
	}
}

// roundResources rounds quantities up to milli precision, as upstream does
// to every resource list it stores.
func roundResources(list corev1.ResourceList) {
	for name, q := range list {
		q.RoundUp(resource.Milli)
		list[name] = q
	}
}
