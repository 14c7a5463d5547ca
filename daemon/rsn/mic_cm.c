/* TKIP countermeasure timing; see mic_cm.h. */
#include "daemon/rsn/mic_cm.h"

enum rsn_mic_cm_action rsn_mic_cm_failure(struct rsn_mic_cm *cm, uint64_t now_us)
{
	bool second = cm->have_last && now_us >= cm->last_failure_us &&
		      now_us - cm->last_failure_us <= RSN_MIC_CM_WINDOW_US;
	cm->failures++;
	cm->have_last = true;
	cm->last_failure_us = now_us;
	if (!second)
		return RSN_MIC_CM_REPORT;
	/* The pair is spent: a third failure needs a new partner. */
	cm->have_last = false;
	cm->blocked_until_us = now_us + RSN_MIC_CM_BLOCK_US;
	cm->countermeasures++;
	return RSN_MIC_CM_COUNTERMEASURES;
}

bool rsn_mic_cm_blocked(const struct rsn_mic_cm *cm, uint64_t now_us)
{
	return cm->blocked_until_us && now_us < cm->blocked_until_us;
}

uint64_t rsn_mic_cm_remaining_us(const struct rsn_mic_cm *cm, uint64_t now_us)
{
	return rsn_mic_cm_blocked(cm, now_us) ? cm->blocked_until_us - now_us : 0;
}
