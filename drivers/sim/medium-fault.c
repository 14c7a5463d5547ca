/* Fault rules: match a radio's frames by type/subtype and transmitter, and
 * act on the nth matching frame and `count` more (see medium-proto.h). Every
 * rule counts every frame it matches, so rules never steal each other's
 * frames; all rules that act on a frame apply together. */
#define LOG_TAG "medium"
#include "daemon/core/log.h"
#include "drivers/sim/medium-internal.h"

#include <errno.h>
#include <string.h>

#define MAX_DELAY_MS 600000u /* ten minutes: longer is surely a typo */

static const uint8_t any_source[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

int medium_add_fault(struct medium *m, const struct medium_fault_spec *f)
{
	if (!f || f->nth == 0)
		return -EINVAL;
	switch (f->action) {
	case MEDIUM_FAULT_DROP:
	case MEDIUM_FAULT_CORRUPT:
	case MEDIUM_FAULT_DUPLICATE:
		break;
	case MEDIUM_FAULT_DELAY:
		if (f->param > MAX_DELAY_MS)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	if (f->frame_type != MEDIUM_FAULT_ANY_TYPE && (f->frame_type & ~0x00fcu))
		return -EINVAL;
	if (m->n_faults >= MEDIUM_MAX_FAULTS)
		return -ENOSPC;
	m->faults[m->n_faults].spec = *f;
	m->faults[m->n_faults].seen = 0;
	m->n_faults++;
	log_debug("fault rule %zu: type 0x%04x nth %u count %u action %u param %u", m->n_faults,
		  f->frame_type, f->nth, f->count, f->action, f->param);
	return 0;
}

void medium_clear_faults(struct medium *m)
{
	m->n_faults = 0;
}

static bool rule_matches(const struct medium_fault_spec *f, const uint8_t src[6],
			 const uint8_t *frame)
{
	if (f->frame_type != MEDIUM_FAULT_ANY_TYPE && (frame[0] & 0xfc) != f->frame_type)
		return false;
	return memcmp(f->source, any_source, 6) == 0 || memcmp(f->source, src, 6) == 0;
}

static void apply(const struct medium_fault_spec *f, uint8_t *frame, size_t len,
		  struct medium_fault_verdict *v)
{
	switch ((enum medium_fault_action)f->action) {
	case MEDIUM_FAULT_DROP:
		v->drop = true;
		break;
	case MEDIUM_FAULT_DELAY:
		if (f->param > v->delay_ms)
			v->delay_ms = f->param;
		break;
	case MEDIUM_FAULT_CORRUPT:
		/* Past the end: the last byte, so the rule still bites. */
		frame[f->param < len ? f->param : len - 1] ^= 0xff;
		break;
	case MEDIUM_FAULT_DUPLICATE:
		v->duplicate = true;
		break;
	}
	v->hit = true;
}

void medium_fault_check(struct medium *m, const uint8_t src[6], uint8_t *frame, size_t len,
			struct medium_fault_verdict *v)
{
	memset(v, 0, sizeof(*v));
	if (len == 0)
		return;
	for (size_t i = 0; i < m->n_faults; i++) {
		struct medium_fault_rule *r = &m->faults[i];
		if (!rule_matches(&r->spec, src, frame))
			continue;
		if (r->seen < UINT32_MAX)
			r->seen++;
		/* Act on seen in [nth, nth + count], written so nothing overflows. */
		if (r->seen >= r->spec.nth && r->seen - r->spec.nth <= r->spec.count) {
			log_debug("fault rule %zu acts on matching frame #%u", i + 1, r->seen);
			apply(&r->spec, frame, len, v);
		}
	}
}

/* A flood: n copies of a management frame, each from another (locally
 * administered, spoofed) transmitter address 02:f1:00:00:hi:lo, as an
 * attacker with no radio of the medium would send them (no ACK, never
 * faulted). For denial-of-service tests such as an SAE commit flood. */
int medium_inject_flood(struct medium *m, uint32_t freq_mhz, int32_t signal_mbm,
			const uint8_t *frame, size_t len, unsigned n)
{
	uint8_t copy[2400];
	if (!frame || len < 24 || len > sizeof(copy) || n == 0 || n > 0xffff)
		return -EINVAL;
	memcpy(copy, frame, len);
	for (unsigned i = 0; i < n; i++) {
		static const uint8_t base[4] = { 0x02, 0xf1, 0x00, 0x00 };
		memcpy(copy + 10, base, sizeof(base)); /* addr2: the transmitter */
		copy[14] = (uint8_t)(i >> 8);
		copy[15] = (uint8_t)i;
		int r = medium_inject(m, freq_mhz, signal_mbm, copy, len);
		if (r < 0)
			return r;
	}
	return 0;
}
