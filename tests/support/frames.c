/* Hand-built management frames; see frames.h. */
#include "tests/support/frames.h"

#include <string.h>

static size_t put_hdr(uint8_t *out, uint16_t fc, const uint8_t a1[6], const uint8_t a2[6],
		      const uint8_t a3[6])
{
	out[0] = (uint8_t)fc;
	out[1] = (uint8_t)(fc >> 8);
	out[2] = out[3] = 0; /* duration */
	memcpy(out + 4, a1, 6);
	memcpy(out + 10, a2, 6);
	memcpy(out + 16, a3, 6);
	out[22] = out[23] = 0; /* sequence control: the driver numbers frames */
	return 24;
}

static size_t put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	return 2;
}

size_t frame_beacon_head(uint8_t *out, const uint8_t bssid[6], const char *ssid,
			 uint8_t channel, uint16_t interval)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t rates[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };
	size_t n = put_hdr(out, FC_BEACON, bcast, bssid, bssid);
	size_t ssid_len = strlen(ssid);

	memset(out + n, 0, 8); /* timestamp: the radio fills it */
	n += 8;
	n += put_le16(out + n, interval);
	n += put_le16(out + n, 0x0001); /* ESS */
	out[n++] = 0;
	out[n++] = (uint8_t)ssid_len;
	memcpy(out + n, ssid, ssid_len);
	n += ssid_len;
	out[n++] = 1;
	out[n++] = sizeof(rates);
	memcpy(out + n, rates, sizeof(rates));
	n += sizeof(rates);
	out[n++] = 3; /* DS parameter set */
	out[n++] = 1;
	out[n++] = channel;
	return n;
}

size_t frame_auth(uint8_t *out, const uint8_t da[6], const uint8_t sa[6],
		  const uint8_t bssid[6], uint16_t alg, uint16_t seq, uint16_t status)
{
	size_t n = put_hdr(out, FC_AUTH, da, sa, bssid);
	n += put_le16(out + n, alg);
	n += put_le16(out + n, seq);
	n += put_le16(out + n, status);
	return n;
}

size_t frame_assoc_resp(uint8_t *out, const uint8_t da[6], const uint8_t bssid[6],
			uint16_t status, uint16_t aid)
{
	static const uint8_t rates[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };
	size_t n = put_hdr(out, FC_ASSOC_RESP, da, bssid, bssid);
	n += put_le16(out + n, 0x0001);
	n += put_le16(out + n, status);
	n += put_le16(out + n, (uint16_t)(aid | 0xc000));
	out[n++] = 1;
	out[n++] = sizeof(rates);
	memcpy(out + n, rates, sizeof(rates));
	return n + sizeof(rates);
}

size_t frame_action(uint8_t *out, const uint8_t da[6], const uint8_t sa[6],
		    const uint8_t bssid[6], uint8_t tag)
{
	size_t n = put_hdr(out, FC_ACTION, da, sa, bssid);
	out[n++] = 127; /* vendor-specific category */
	out[n++] = 0x02; /* a locally administered OUI */
	out[n++] = 0x00;
	out[n++] = 0x00;
	out[n++] = tag;
	return n;
}

size_t frame_deauth(uint8_t *out, const uint8_t da[6], const uint8_t sa[6],
		    const uint8_t bssid[6], uint16_t reason)
{
	size_t n = put_hdr(out, FC_DEAUTH, da, sa, bssid);
	return n + put_le16(out + n, reason);
}

uint16_t frame_fc(const uint8_t *frame)
{
	return (uint16_t)(frame[0] | frame[1] << 8);
}

const uint8_t *frame_addr1(const uint8_t *frame)
{
	return frame + 4;
}

const uint8_t *frame_addr2(const uint8_t *frame)
{
	return frame + 10;
}

uint16_t frame_auth_status(const uint8_t *frame, size_t len)
{
	if (len < 30)
		return 0xffff;
	return (uint16_t)(frame[28] | frame[29] << 8);
}

uint16_t frame_assoc_resp_status(const uint8_t *frame, size_t len)
{
	if (len < 30)
		return 0xffff;
	return (uint16_t)(frame[26] | frame[27] << 8);
}

int ies_find_ssid(const uint8_t *ies, size_t len, char *ssid_out, size_t cap)
{
	size_t pos = 0;
	while (pos + 2 <= len) {
		uint8_t id = ies[pos], elen = ies[pos + 1];
		if (pos + 2 + elen > len)
			return -1;
		if (id == 0) {
			if (elen + 1u > cap)
				return -1;
			memcpy(ssid_out, ies + pos + 2, elen);
			ssid_out[elen] = '\0';
			return elen;
		}
		pos += 2u + elen;
	}
	return -1;
}
