#!/usr/bin/python3
"""Compares what khard and Evolution read from ldapbook's vCards with what
ldapbook's JSON export says, person by person.

    compare-vcard-readers.py PEOPLE_JSON FIELDS VERSION DIR SHOWN_DN

PEOPLE_JSON is `ldapbook export --format json`, FIELDS `ldapbook fields`
(any other field name in the export is a custom field), VERSION the vCard
version the cards were written in, and DIR holds what the readers printed:

    khard-list.tsv    khard list --parsable --fields uid,formatted_name,...
    khard-email.tsv   khard email --parsable --remove-first-line
    khard-phone.tsv   khard phone --parsable
    khard-show.yaml   khard show --format yaml for SHOWN_DN
    evolution.json    scripts/interop/evolution-read on the exported file

Prints each mismatch on one line and exits 1 if there is any.
"""
import ast
import base64
import collections
import json
import sys

from ruamel.yaml import YAML

# The TYPEs ldapbook gives each telephone field, and the phone field
# Evolution's contact editor shows it in.
TELEPHONES = {
    "phone": ({"work", "voice"}, "business"),
    "mobile": ({"cell"}, "mobile"),
    "home-phone": ({"home", "voice"}, "home"),
    "fax": ({"work", "fax"}, "business_fax"),
    "pager": ({"pager"}, "pager"),
}

KHARD_FIELDS = ["uid", "formatted_name", "first_name", "last_name", "emails", "phone_numbers", "nicknames",
                "birthday", "anniversary", "organisations", "titles", "notes", "webpages", "post_addresses"]


class Person:
    """What one entry of the JSON export should look like in any reader."""

    def __init__(self, entry, known_fields, version):
        fields = entry["fields"]
        self.dn = entry["dn"]
        # The card's UID: the export's JSON gives vCard 4.0's; 3.0 writes an entryUUID bare.
        self.uid = entry.get("uid", self.dn)
        if version == "3.0" and self.uid.startswith("urn:uuid:"):
            self.uid = self.uid[len("urn:uuid:"):]

        def first(name):
            values = fields.get(name, [])
            return values[0] if values else None

        self.given = first("given-name") or ""
        self.family = first("surname") or ""
        self.fn = first("display-name") or first("cn") or " ".join(
            part for part in (first("given-name"), first("surname")) if part) or self.dn
        self.emails = fields.get("email", [])
        self.phones = [(number, TELEPHONES[field][0]) for field in TELEPHONES for number in fields.get(field, [])]
        self.first_phone = {slot: first(field) for field, (_, slot) in TELEPHONES.items()}
        self.nicknames = fields.get("nickname", [])
        self.organizations = fields.get("organization", [])
        self.departments = fields.get("department", [])
        self.titles = fields.get("title", [])
        self.notes = fields.get("note", [])
        self.urls = [value.split()[0] for value in fields.get("url", []) if value.split()]
        self.birthday = first("birthday")
        self.anniversary = first("anniversary")
        self.addresses = {kind: [postal_lines(value) for value in fields.get(field, [])]
                          for kind, field in (("work", "address"), ("home", "home-address"))}
        self.custom = sorted((name, value) for name, values in fields.items() if name not in known_fields
                             for value in values)
        photo = first("photo")
        self.photo_bytes = len(base64.b64decode(photo)) if photo else None


def postal_lines(stored):
    """An LDAP postal address as the text of its lines, as ldapbook writes it."""
    lines = (line.replace("\\24", "$").replace("\\5C", "\\").replace("\\5c", "\\").strip()
             for line in stored.split("$"))
    return "\n".join(line for line in lines if line)


class Report:
    def __init__(self, reader):
        self.reader = reader
        self.problems = 0

    def check(self, who, what, got, expected):
        if got != expected:
            self.fail(who, f"{what}: read {got!r}, exported {expected!r}")

    def fail(self, who, message):
        self.problems += 1
        print(f"{self.reader}: {who}: {message}")


def check_khard(people, directory, shown_dn, report):
    by_dn = {}
    with open(f"{directory}/khard-list.tsv", encoding="utf-8") as listing:
        for line in listing:
            columns = line.rstrip("\n").split("\t")
            if len(columns) != len(KHARD_FIELDS):
                report.fail("khard list", f"unexpected line {line.strip()[:80]!r}")
                continue
            row = dict(zip(KHARD_FIELDS, columns))
            by_dn[row["uid"]] = row
    report.check("khard list", "number of contacts", len(by_dn), len(people))

    def literal(text, empty):
        return ast.literal_eval(text) if text else empty

    for person in people:
        row = by_dn.get(person.uid)
        who = person.fn
        if row is None:
            report.fail(who, f"missing from khard list (uid {person.uid})")
            continue
        report.check(who, "formatted name", row["formatted_name"], person.fn)
        report.check(who, "first name", row["first_name"], person.given)
        report.check(who, "last name", row["last_name"], person.family)
        emails = [address for addresses in literal(row["emails"], {}).values() for address in addresses]
        report.check(who, "emails", sorted(emails), sorted(person.emails))
        phones = [(number, frozenset(kind.strip().lower() for kind in kinds.split(",")))
                  for kinds, numbers in literal(row["phone_numbers"], {}).items() for number in numbers]
        report.check(who, "phones", sorted(phones, key=repr),
                     sorted(((n, frozenset(t)) for n, t in person.phones), key=repr))
        report.check(who, "nicknames", literal(row["nicknames"], []), person.nicknames)
        if person.organizations or person.departments:
            expected = [[(person.organizations or [""])[0]] + person.departments]
            expected += [[organization] for organization in person.organizations[1:]]
            report.check(who, "organisations", literal(row["organisations"], []), expected)
        report.check(who, "titles", literal(row["titles"], []), person.titles)
        report.check(who, "notes", literal(row["notes"], []), person.notes)
        report.check(who, "webpages", literal(row["webpages"], []), person.urls)
        for what, date in (("birthday", person.birthday), ("anniversary", person.anniversary)):
            if date and date.lstrip("-") not in row[what]:
                report.fail(who, f"{what}: read {row[what]!r}, exported {date!r}")
        addresses = {kind.lower(): [address["street"] for address in values]
                     for kind, values in literal(row["post_addresses"], {}).items()}
        for kind, streets in person.addresses.items():
            report.check(who, f"{kind} address", addresses.get(kind, []), streets)

    # khard email and khard phone: every value, with the name khard shows.
    def pairs(name):
        with open(f"{directory}/{name}", encoding="utf-8") as lines:
            return collections.Counter(tuple(line.rstrip("\n").split("\t")[0:2]) for line in lines if line.strip())
    expected = collections.Counter((email, person.fn) for person in people for email in person.emails)
    got = pairs("khard-email.tsv")
    for pair in (got - expected) + (expected - got):
        report.fail("khard email", f"{pair[0]} of {pair[1]}: {'unexpected' if got[pair] > expected[pair] else 'missing'}")
    expected = collections.Counter((number, person.fn) for person in people for number, _ in person.phones)
    got = pairs("khard-phone.tsv")
    for pair in (got - expected) + (expected - got):
        report.fail("khard phone", f"{pair[0]} of {pair[1]}: {'unexpected' if got[pair] > expected[pair] else 'missing'}")

    # khard show: the contact as khard's editor would show it.
    person = next(person for person in people if person.dn == shown_dn)
    with open(f"{directory}/khard-show.yaml", encoding="utf-8") as text:
        shown = YAML(typ="safe").load(text)
    who = f"khard show {person.fn}"
    report.check(who, "First name", shown.get("First name"), person.given)
    report.check(who, "Last name", shown.get("Last name"), person.family)
    report.check(who, "Formatted name", shown.get("Formatted name"), person.fn)
    emails = [value for values in (shown.get("Email") or {}).values()
              for value in (values if isinstance(values, list) else [values])]
    report.check(who, "Email", sorted(emails), sorted(person.emails))
    numbers = [value for values in (shown.get("Phone") or {}).values()
               for value in (values if isinstance(values, list) else [values])]
    report.check(who, "Phone", sorted(numbers), sorted(number for number, _ in person.phones))
    # A custom field, by its name: khard shows X-SHOE-SIZE as the private object SHOE-SIZE.
    private = shown.get("Private") or {}
    report.check(who, "custom field SHOE-SIZE", str(private.get("SHOE-SIZE")),
                 next((value for name, value in person.custom if name == "shoe-size"), None))


def check_evolution(people, directory, version, report):
    with open(f"{directory}/evolution.json", encoding="utf-8") as text:
        contacts = json.load(text)
    report.check("Evolution", "number of contacts", len(contacts), len(people))
    by_uid = {contact["uid"]: contact for contact in contacts}
    for person in people:
        contact = by_uid.get(person.uid)
        who = person.fn
        if contact is None:
            report.fail(who, f"missing (no contact with UID {person.uid})")
            continue
        report.check(who, "full name", contact["full_name"], person.fn)
        report.check(who, "given name", contact["given_name"] or "", person.given)
        report.check(who, "family name", contact["family_name"] or "", person.family)
        report.check(who, "emails", sorted(contact["emails"]), sorted(person.emails))
        tels = [(tel["value"], frozenset(kind.lower() for kind in tel["types"])) for tel in contact["tels"]]
        report.check(who, "telephones", sorted(tels, key=repr),
                     sorted(((n, frozenset(t)) for n, t in person.phones), key=repr))
        for slot, number in person.first_phone.items():
            report.check(who, f"{slot} phone", contact["phone_slots"][slot], number)
        report.check(who, "nickname", contact["nickname"], (person.nicknames or [None])[0])
        if person.organizations:
            report.check(who, "organization", contact["org"], person.organizations[0])
        if person.departments:
            report.check(who, "department", contact["org_unit"], person.departments[0])
        report.check(who, "title", contact["title"], (person.titles or [None])[0])
        report.check(who, "note", contact["note"], (person.notes or [None])[0])
        report.check(who, "home page", contact["homepage_url"], (person.urls or [None])[0])
        # Evolution 3.46 reads neither vCard 4.0's dates without a year nor its
        # ANNIVERSARY; in vCard 3.0, a date without a year has Apple's 1604.
        for what, key, date in (("birthday", "birth_date", person.birthday),
                                ("anniversary", "anniversary", person.anniversary)):
            if date and version == "3.0":
                report.check(who, what, contact[key], "1604" + date[1:] if date.startswith("--") else date)
            elif date and what == "birthday" and not date.startswith("--"):
                report.check(who, what, contact[key], date)
        for kind, streets in person.addresses.items():
            address = contact[f"address_{kind}"]
            report.check(who, f"{kind} address", address and address["street"], (streets or [None])[0])
            if version == "3.0":
                report.check(who, f"{kind} address label", contact[f"label_{kind}"], (streets or [None])[0])
        custom = sorted((field["key"], field["value"]) for field in contact["custom"])
        report.check(who, "custom fields", custom, person.custom)
        photo = contact["photo"]
        if person.photo_bytes is None:
            report.check(who, "photo", photo, None)
        elif photo is None:
            report.fail(who, f"photo: none read, exported {person.photo_bytes} bytes")
        elif version == "3.0" and photo["type"] != "inlined":
            report.fail(who, f"photo: read as {photo['type']}, exported inline")
        else:
            report.check(who, "photo size", photo.get("bytes"), person.photo_bytes)


def main():
    people_json, fields_file, version, directory, shown_dn = sys.argv[1:]
    with open(fields_file, encoding="utf-8") as text:
        known_fields = {line.split()[0] for line in text if line.strip() and not line.startswith("any other")}
    with open(people_json, encoding="utf-8") as text:
        people = [Person(entry, known_fields, version) for entry in json.load(text)]
    problems = 0
    for reader, check in (("khard", lambda report: check_khard(people, directory, shown_dn, report)),
                          ("Evolution", lambda report: check_evolution(people, directory, version, report))):
        report = Report(f"vCard {version}, {reader}")
        check(report)
        problems += report.problems
        if report.problems == 0:
            print(f"vCard {version}, {reader}: {len(people)} people read back as exported")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
