/* devsrc.c - the registry of device sources (see devsrc.h). */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "shortstroke/devsrc.h"

/*
 * One lock for every registry's states (any thread may ask), held only to look at a
 * state and to publish or take one: a load (a rig that waits on a drive another process
 * holds) and an unload run outside it, so that one registry's slow load keeps no other
 * registry, nor a thread on its way out, waiting. Two threads that load the same
 * registry's source at once both load; the first to publish wins, the other's state is
 * unloaded.
 */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;

int dev_env_add(struct dev_env *env, const struct dev_source_ops *ops, struct ss_error *err)
{
	if (!ops || !ops->name || !ops->name[0])
		return ss_error_set(err, -EINVAL, "device source without a name");
	if (!ops->list || !ops->find || !ops->open || !ops->io)
		return ss_error_set(err, -EINVAL,
				    "device source %s lacks a required hook (list, find, open, io)",
				    ops->name);
	if (ops->caps & ~DEVSRC_ALL)
		return ss_error_set(err, -EINVAL,
				    "device source %s has unknown capability bits 0x%x", ops->name,
				    ops->caps & ~DEVSRC_ALL);
	if (!ops->claims && !(ops->caps & DEVSRC_ANY_NAME))
		return ss_error_set(err, -EINVAL,
				    "device source %s claims no name (a claims hook, or "
				    "DEVSRC_ANY_NAME)",
				    ops->name);
	if (!ops->enclosures != !ops->open_encl)
		return ss_error_set(err, -EINVAL,
				    "device source %s has one of enclosures and open_encl "
				    "without the other",
				    ops->name);
	if (!ops->load != !ops->unload)
		return ss_error_set(err, -EINVAL,
				    "device source %s has one of load and unload without the other",
				    ops->name);
	for (unsigned i = 0; i < env->n; i++) {
		if (!strcmp(env->src[i]->name, ops->name))
			return ss_error_set(err, -EEXIST, "device source %s is already registered",
					    ops->name);
		if (env->src[i]->caps & ops->caps & DEVSRC_ANY_NAME)
			return ss_error_set(err, -EEXIST,
					    "device sources %s and %s would both claim every name",
					    env->src[i]->name, ops->name);
	}
	if (env->n >= DEV_SOURCES_MAX)
		return ss_error_set(err, -ENOSPC, "too many device sources");
	env->src[env->n] = ops;
	env->state[env->n] = NULL;
	env->n++;
	return 0;
}

int dev_env_source(const struct dev_env *env, const char *name, const struct dev_source_ops **out,
		   struct ss_error *err)
{
	const struct dev_source_ops *any = NULL, *claimed = NULL;

	*out = NULL;
	for (unsigned i = 0; i < env->n; i++) {
		const struct dev_source_ops *s = env->src[i];

		if (s->caps & DEVSRC_ANY_NAME)
			any = s;
		if (!s->claims || !s->claims(name))
			continue;
		if (claimed)
			return ss_error_set(err, -EINVAL,
					    "%s is claimed by the device sources %s and %s", name,
					    claimed->name, s->name);
		claimed = s;
	}
	*out = claimed ? claimed : any;
	if (!*out)
		return ss_error_set(err, -ENOENT, "%s: no device source knows this name", name);
	return 0;
}

const struct dev_source_ops *dev_env_listed(const struct dev_env *env)
{
	for (unsigned i = 0; i < env->n; i++)
		if (!env->src[i]->active || env->src[i]->active(env))
			return env->src[i];
	return NULL;
}

int dev_env_state(struct dev_env *env, const struct dev_source_ops *src, void **out,
		  struct ss_error *err)
{
	void *mine = NULL;
	unsigned i;
	int rc;

	*out = NULL;
	for (i = 0; i < env->n && env->src[i] != src; i++)
		;
	if (i == env->n)
		return ss_error_set(err, -ENOENT, "no device source %s here",
				    src && src->name ? src->name : "(none)");
	if (!src->load)
		return 0;
	pthread_mutex_lock(&state_lock);
	*out = env->state[i];
	pthread_mutex_unlock(&state_lock);
	if (*out)
		return 0;
	rc = src->load(env, &mine, err);
	if (rc)
		return rc;
	pthread_mutex_lock(&state_lock);
	if (!env->state[i]) {
		env->state[i] = mine;
		mine = NULL;
	}
	*out = env->state[i];
	pthread_mutex_unlock(&state_lock);
	if (mine)
		src->unload(mine); /* another thread published first */
	return 0;
}

void dev_env_release(struct dev_env *env)
{
	void *old[DEV_SOURCES_MAX];
	unsigned n;

	pthread_mutex_lock(&state_lock);
	n = env->n;
	for (unsigned i = 0; i < n; i++) {
		old[i] = env->state[i];
		env->state[i] = NULL;
	}
	pthread_mutex_unlock(&state_lock);
	for (unsigned i = 0; i < n; i++)
		if (old[i])
			env->src[i]->unload(old[i]);
}
