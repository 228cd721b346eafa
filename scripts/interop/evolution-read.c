/*
 * evolution-read FILE...: reads vCard files the way Evolution does, with
 * evolution-data-server's libebook-contacts, and prints what it understood
 * as JSON: an array with one object per card, in file order.
 *
 * Cards are split on their BEGIN:VCARD and END:VCARD lines, as Evolution's
 * vCard importer does, and each is parsed with e_contact_new_from_vcard().
 * Each object holds the fields Evolution shows in its contact editor:
 *
 *   uid, full_name, given_name, family_name, nickname  (strings or null)
 *   emails        every E_CONTACT_EMAIL value, in order
 *   tels          every TEL: {"value", "types": [TYPE values, uppercase]}
 *   phone_slots   the numbers Evolution puts in its business, mobile, home,
 *                 business_fax and pager fields
 *   org, org_unit, title, note, homepage_url  (strings or null)
 *   birth_date, anniversary  "YYYY-MM-DD" or null
 *   address_work, address_home  {"street", "locality", ...} or null
 *   label_work, label_home      the formatted address labels, or null
 *   photo         {"type": "inlined", "mime_type", "bytes"} or
 *                 {"type": "uri", "uri_prefix"} (with "bytes" for a base64
 *                 data: URI) or null
 *   custom        every custom field (X-NAME;KEY=name): {"key", "value"}
 *
 * Build: cc -o evolution-read evolution-read.c $(pkg-config --cflags --libs libebook-contacts-1.2)
 */
#include <libebook-contacts/libebook-contacts.h>
#include <stdio.h>
#include <string.h>

/* Writes `text` as a JSON string, or null. */
static void put_string(GString *out, const char *text)
{
	if (text == NULL) {
		g_string_append(out, "null");
		return;
	}
	g_string_append_c(out, '"');
	for (const unsigned char *p = (const unsigned char *) text; *p; p++) {
		switch (*p) {
		case '"': g_string_append(out, "\\\""); break;
		case '\\': g_string_append(out, "\\\\"); break;
		case '\n': g_string_append(out, "\\n"); break;
		case '\r': g_string_append(out, "\\r"); break;
		case '\t': g_string_append(out, "\\t"); break;
		default:
			if (*p < 0x20)
				g_string_append_printf(out, "\\u%04x", *p);
			else
				g_string_append_c(out, (char) *p);
		}
	}
	g_string_append_c(out, '"');
}

/* Writes `"key": ` before a value; `first` tells whether a comma goes first. */
static void put_key(GString *out, const char *key, gboolean *first)
{
	if (!*first)
		g_string_append(out, ", ");
	*first = FALSE;
	put_string(out, key);
	g_string_append(out, ": ");
}

/* A string field of the contact as "key": value. */
static void put_field(GString *out, EContact *contact, const char *key, EContactField field, gboolean *first)
{
	char *value = e_contact_get(contact, field);
	put_key(out, key, first);
	put_string(out, value);
	g_free(value);
}

/* A list of strings, such as E_CONTACT_EMAIL, as "key": [...]. */
static void put_list(GString *out, EContact *contact, const char *key, EContactField field, gboolean *first)
{
	GList *values = e_contact_get(contact, field);
	put_key(out, key, first);
	g_string_append_c(out, '[');
	for (GList *item = values; item; item = item->next) {
		if (item != values)
			g_string_append(out, ", ");
		put_string(out, item->data);
	}
	g_string_append_c(out, ']');
	g_list_free_full(values, g_free);
}

/* Every TEL with its value and TYPE values. */
static void put_tels(GString *out, EContact *contact, gboolean *first)
{
	GList *attributes = e_contact_get_attributes(contact, E_CONTACT_TEL);
	put_key(out, "tels", first);
	g_string_append_c(out, '[');
	for (GList *item = attributes; item; item = item->next) {
		EVCardAttribute *attribute = item->data;
		char *value = e_vcard_attribute_get_value(attribute);
		if (item != attributes)
			g_string_append(out, ", ");
		g_string_append(out, "{\"value\": ");
		put_string(out, value);
		g_string_append(out, ", \"types\": [");
		gboolean first_type = TRUE;
		for (GList *param = e_vcard_attribute_get_params(attribute); param; param = param->next) {
			if (g_ascii_strcasecmp(e_vcard_attribute_param_get_name(param->data), EVC_TYPE) != 0)
				continue;
			for (GList *type = e_vcard_attribute_param_get_values(param->data); type; type = type->next) {
				char *upper = g_ascii_strup(type->data, -1);
				if (!first_type)
					g_string_append(out, ", ");
				first_type = FALSE;
				put_string(out, upper);
				g_free(upper);
			}
		}
		g_string_append(out, "]}");
		g_free(value);
	}
	g_string_append_c(out, ']');
	g_list_free_full(attributes, (GDestroyNotify) e_vcard_attribute_free);
}

/* The numbers in the phone fields Evolution's editor shows by name. */
static void put_phone_slots(GString *out, EContact *contact, gboolean *first)
{
	gboolean first_slot = TRUE;
	put_key(out, "phone_slots", first);
	g_string_append_c(out, '{');
	put_field(out, contact, "business", E_CONTACT_PHONE_BUSINESS, &first_slot);
	put_field(out, contact, "mobile", E_CONTACT_PHONE_MOBILE, &first_slot);
	put_field(out, contact, "home", E_CONTACT_PHONE_HOME, &first_slot);
	put_field(out, contact, "business_fax", E_CONTACT_PHONE_BUSINESS_FAX, &first_slot);
	put_field(out, contact, "pager", E_CONTACT_PHONE_PAGER, &first_slot);
	g_string_append_c(out, '}');
}

static void put_date(GString *out, EContact *contact, const char *key, EContactField field, gboolean *first)
{
	EContactDate *date = e_contact_get(contact, field);
	put_key(out, key, first);
	if (date == NULL) {
		g_string_append(out, "null");
		return;
	}
	g_string_append_printf(out, "\"%04u-%02u-%02u\"", date->year, date->month, date->day);
	e_contact_date_free(date);
}

static void put_address(GString *out, EContact *contact, const char *key, EContactField field, gboolean *first)
{
	EContactAddress *address = e_contact_get(contact, field);
	put_key(out, key, first);
	if (address == NULL) {
		g_string_append(out, "null");
		return;
	}
	gboolean first_part = TRUE;
	g_string_append_c(out, '{');
	put_key(out, "po", &first_part); put_string(out, address->po);
	put_key(out, "ext", &first_part); put_string(out, address->ext);
	put_key(out, "street", &first_part); put_string(out, address->street);
	put_key(out, "locality", &first_part); put_string(out, address->locality);
	put_key(out, "region", &first_part); put_string(out, address->region);
	put_key(out, "code", &first_part); put_string(out, address->code);
	put_key(out, "country", &first_part); put_string(out, address->country);
	g_string_append_c(out, '}');
	e_contact_address_free(address);
}

static void put_photo(GString *out, EContact *contact, gboolean *first)
{
	EContactPhoto *photo = e_contact_get(contact, E_CONTACT_PHOTO);
	put_key(out, "photo", first);
	if (photo == NULL) {
		g_string_append(out, "null");
		return;
	}
	if (photo->type == E_CONTACT_PHOTO_TYPE_INLINED) {
		gsize length = 0;
		e_contact_photo_get_inlined(photo, &length);
		g_string_append(out, "{\"type\": \"inlined\", \"mime_type\": ");
		put_string(out, e_contact_photo_get_mime_type(photo));
		g_string_append_printf(out, ", \"bytes\": %" G_GSIZE_FORMAT "}", length);
	} else {
		const char *uri = e_contact_photo_get_uri(photo);
		char *prefix = g_strndup(uri ? uri : "", 40);
		g_string_append(out, "{\"type\": \"uri\", \"uri_prefix\": ");
		put_string(out, prefix);
		/* Evolution shows a data: URI as it is, so count what it holds. */
		const char *base64 = uri && g_ascii_strncasecmp(uri, "data:", 5) == 0 ? strstr(uri, ";base64,") : NULL;
		if (base64 != NULL) {
			gsize length = 0;
			g_free(g_base64_decode(base64 + strlen(";base64,"), &length));
			g_string_append_printf(out, ", \"bytes\": %" G_GSIZE_FORMAT, length);
		}
		g_string_append_c(out, '}');
		g_free(prefix);
	}
	e_contact_photo_free(photo);
}

/* Every custom field, decoded by the vCard parser: X-SHOE-SIZE;KEY=shoe-size:38, or
 * X-LDAPBOOK-FIELD;KEY=k:v for a name that is no property name. */
static void put_custom(GString *out, EContact *contact, gboolean *first)
{
	gboolean first_field = TRUE;
	put_key(out, "custom", first);
	g_string_append_c(out, '[');
	for (GList *item = e_vcard_get_attributes(E_VCARD(contact)); item; item = item->next) {
		EVCardAttribute *attribute = item->data;
		const char *name = e_vcard_attribute_get_name(attribute);
		GList *keys = e_vcard_attribute_get_param(attribute, "KEY");
		if (g_ascii_strncasecmp(name, "X-", 2) != 0 || !keys)
			continue;
		char *value = e_vcard_attribute_get_value(attribute);
		if (!first_field)
			g_string_append(out, ", ");
		first_field = FALSE;
		g_string_append(out, "{\"key\": ");
		put_string(out, keys ? keys->data : NULL);
		g_string_append(out, ", \"value\": ");
		put_string(out, value);
		g_string_append_c(out, '}');
		g_free(value);
	}
	g_string_append_c(out, ']');
}

static void put_contact(GString *out, EContact *contact)
{
	gboolean first = TRUE;
	g_string_append_c(out, '{');
	put_field(out, contact, "uid", E_CONTACT_UID, &first);
	put_field(out, contact, "full_name", E_CONTACT_FULL_NAME, &first);
	put_field(out, contact, "given_name", E_CONTACT_GIVEN_NAME, &first);
	put_field(out, contact, "family_name", E_CONTACT_FAMILY_NAME, &first);
	put_field(out, contact, "nickname", E_CONTACT_NICKNAME, &first);
	put_list(out, contact, "emails", E_CONTACT_EMAIL, &first);
	put_tels(out, contact, &first);
	put_phone_slots(out, contact, &first);
	put_field(out, contact, "org", E_CONTACT_ORG, &first);
	put_field(out, contact, "org_unit", E_CONTACT_ORG_UNIT, &first);
	put_field(out, contact, "title", E_CONTACT_TITLE, &first);
	put_field(out, contact, "note", E_CONTACT_NOTE, &first);
	put_field(out, contact, "homepage_url", E_CONTACT_HOMEPAGE_URL, &first);
	put_date(out, contact, "birth_date", E_CONTACT_BIRTH_DATE, &first);
	put_date(out, contact, "anniversary", E_CONTACT_ANNIVERSARY, &first);
	put_address(out, contact, "address_work", E_CONTACT_ADDRESS_WORK, &first);
	put_address(out, contact, "address_home", E_CONTACT_ADDRESS_HOME, &first);
	put_field(out, contact, "label_work", E_CONTACT_ADDRESS_LABEL_WORK, &first);
	put_field(out, contact, "label_home", E_CONTACT_ADDRESS_LABEL_HOME, &first);
	put_photo(out, contact, &first);
	put_custom(out, contact, &first);
	g_string_append_c(out, '}');
}

/* Whether `line` (without its line ending) is `word` in any case. */
static gboolean line_is(const char *line, gsize length, const char *word)
{
	return length == strlen(word) && g_ascii_strncasecmp(line, word, length) == 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 64;
	}
	GString *out = g_string_new("[");
	int cards = 0;
	for (int arg = 1; arg < argc; arg++) {
		char *text = NULL;
		gsize size = 0;
		GError *error = NULL;
		if (!g_file_get_contents(argv[arg], &text, &size, &error)) {
			fprintf(stderr, "evolution-read: %s\n", error->message);
			return 66;
		}
		if (!g_utf8_validate(text, (gssize) size, NULL)) {
			fprintf(stderr, "evolution-read: %s is not valid UTF-8\n", argv[arg]);
			return 65;
		}
		const char *card_start = NULL;
		for (const char *line = text; line < text + size;) {
			const char *end = memchr(line, '\n', (size_t) (text + size - line));
			const char *next = end ? end + 1 : text + size;
			gsize length = (gsize) ((end ? end : text + size) - line);
			if (length > 0 && line[length - 1] == '\r')
				length--;
			if (line_is(line, length, "BEGIN:VCARD")) {
				card_start = line;
			} else if (line_is(line, length, "END:VCARD") && card_start != NULL) {
				char *card = g_strndup(card_start, (gsize) (next - card_start));
				EContact *contact = e_contact_new_from_vcard(card);
				if (contact == NULL) {
					fprintf(stderr, "evolution-read: %s: Evolution could not read card %d\n", argv[arg], cards + 1);
					return 65;
				}
				if (cards > 0)
					g_string_append_c(out, ',');
				g_string_append(out, "\n");
				put_contact(out, contact);
				cards++;
				g_object_unref(contact);
				g_free(card);
				card_start = NULL;
			}
			line = next;
		}
		g_free(text);
	}
	g_string_append(out, cards > 0 ? "\n]\n" : "]\n");
	fwrite(out->str, 1, out->len, stdout);
	g_string_free(out, TRUE);
	return 0;
}
