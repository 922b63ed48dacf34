"""The behaviour table: each mark against the facts it rests on, in a copy of a real run's behaviour.json edited where a
test needs another case; and its place in the verdict, summary.json, results.csv and the terminal."""
import copy
import csv
import json
import shutil
from pathlib import Path

import pytest

from analysis.decide import behaviour as cbb
from analysis.decide import verdict as cbd
from analysis.report import estimates as est
from analysis import load as cbl

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "behaviour-small" / cbb.FILE
RUN = HERE / "fixtures" / "run-small"


@pytest.fixture
def facts():
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def decided(tmp_path, data) -> dict:
    (tmp_path / cbb.FILE).write_text(json.dumps(data), encoding="utf-8")
    return cbb.decide(tmp_path)


def case(data, client, key):
    return data["clients"][client]["cases"][key]["figures"]


def probes(data, client, key, **kinds):
    """Sets a stale-connection case's POSTs and GETs: kind -> (outcomes, sent twice, sent on closed, race closed)."""
    f = case(data, client, key)
    for kind, (outcomes, twice, on_closed, race) in kinds.items():
        f[kind + "s"] = outcomes
        f.update({kind + "SentTwice": twice, kind + "SentOnClosed": on_closed, kind + "RaceClosed": race})
    return f


CLEAN = ({"ok": 2}, 0, 0, 0)


def cell(tmp_path, facts, client, aspect) -> tuple:
    c = decided(tmp_path, facts)["clients"][client][aspect]
    return c["text"], c["mark"]


def test_rule_a_safe_request_lost_and_not_resent_is_no_and_one_resent_is_not(tmp_path, facts):
    # Rule line 1, in flight (the idle race): a GET the race closed under and the client failed, against one it sent again.
    client = next(iter(facts["clients"]))
    probes(facts, client, "stale-race", post=({"reset": 2}, 0, 0, 2), get=({"ok": 1, "reset": 1}, 0, 0, 2))
    assert cell(tmp_path, facts, client, "race") == ("GET 1/2 lost", cbb.NOT_WANTED), "what broke the rule, alone"
    probes(facts, client, "stale-race", get=({"ok": 2}, 2, 0, 2))
    assert cell(tmp_path, facts, client, "race") == ("POST 2/2 fail", cbb.WANTED), "a GET sent again goes unsaid"


def test_rule_a_post_resent_is_no_in_every_column_it_happens(tmp_path, facts):
    # Rule line 2: the same resend, in flight and seen, in the race, the closes at once and the stale connection.
    client = next(iter(facts["clients"]))
    for key in ("stale-race", "closed-at-once", "closed-at-once-seen", "stale-fin", "stale-rst"):
        probes(facts, client, key, post=({"ok": 2}, 1, 0, 1), get=CLEAN)
    cells = decided(tmp_path, facts)["clients"][client]
    for aspect in ("race", "closedAtOnce", "closedSeen", "stale"):
        assert cells[aspect]["mark"] == cbb.NOT_WANTED, (aspect, cells[aspect])
        assert "POST " in cells[aspect]["text"] and " x2" in cells[aspect]["text"], cells[aspect]


def in_flight_and_seen(tmp_path, facts, seen_probes, **kinds) -> tuple:
    """The same requests in closed in flight and in closed seen, the stub's proof before `seen_probes` sends there:
    both cells, (text, mark) each."""
    client = next(iter(facts["clients"]))
    for key in ("closed-at-once", "closed-at-once-seen"):
        probes(facts, client, key, **kinds)
    case(facts, client, "closed-at-once-seen")["closeSeenBeforeSend"] = seen_probes
    cells = decided(tmp_path, facts)["clients"][client]
    return tuple((cells[a]["text"], cells[a]["mark"]) for a in ("closedAtOnce", "closedSeen"))


def test_rule_a_post_failed_in_flight_is_the_right_answer_but_not_once_its_close_had_arrived(tmp_path, facts):
    # Rule line 3 against line 4: the same failed POSTs, the close in flight (ok) and seen before the send (NO).
    assert in_flight_and_seen(tmp_path, facts, 10, post=({"ok": 3, "reset": 2}, 0, 0, 0), get=CLEAN) == (
        ("POST 2/5 fail,GET unreached", cbb.WANTED), ("POST 2/5 fail", cbb.NOT_WANTED))


def test_rule_a_request_sent_on_a_connection_whose_close_had_arrived_is_no_even_when_it_passed(tmp_path, facts):
    # Rule line 4: the stub saw GETs come after its FIN, resent and answered: NO where the close was seen first, not in
    # flight, where no check could have seen it.
    assert in_flight_and_seen(tmp_path, facts, 4, post=CLEAN, get=({"ok": 2}, 2, 2, 0)) == (
        ("POST unreached", cbb.WANTED), ("2 on closed", cbb.NOT_WANTED))


def test_a_kind_of_request_that_never_met_the_close_is_unreached_and_a_case_none_met(tmp_path, facts):
    # The race closed under the GETs only: the POSTs were not provoked, whatever became of them. A seen case whose
    # close the stub never proved before a send, and an in-flight case where no request met the close, are unreached.
    client = next(iter(facts["clients"]))
    probes(facts, client, "stale-race", post=CLEAN, get=({"reset": 2}, 0, 0, 2))
    assert cell(tmp_path, facts, client, "race") == ("GET 2/2 lost", cbb.NOT_WANTED)
    probes(facts, client, "stale-race", get=({"ok": 2}, 2, 0, 2))
    assert cell(tmp_path, facts, client, "race") == ("POST unreached", cbb.WANTED), "an ok says what it rests on"
    probes(facts, client, "stale-race", get=CLEAN)
    probes(facts, client, "closed-at-once", post=CLEAN, get=CLEAN)
    probes(facts, client, "closed-at-once-seen", post=CLEAN, get=CLEAN)["closeSeenBeforeSend"] = 0
    for aspect in ("race", "closedAtOnce", "closedSeen"):
        assert cell(tmp_path, facts, client, aspect) == ("-", cbb.NOT_REACHED), aspect


def test_a_stale_connection_is_marked_by_any_failure_of_fin_or_rst(tmp_path, facts):
    client = next(iter(facts["clients"]))
    for key in ("stale-fin", "stale-rst"):
        probes(facts, client, key, post=CLEAN, get=CLEAN)["closeSeenBeforeSend"] = 4
    assert decided(tmp_path, facts)["clients"][client]["stale"] == {
        "text": "0 failed", "mark": cbb.WANTED, "why": cbb.BY_KEY["stale"].label, "events": {"bad": 0, "of": 8}}
    case(facts, client, "stale-rst")["gets"] = {"ok": 1, "reset": 1}
    assert cell(tmp_path, facts, client, "stale") == ("GET 1/4 lost", cbb.NOT_WANTED)
    assert decided(tmp_path, facts)["clients"][client]["stale"]["events"] == {"bad": 1, "of": 8}, "what the mark rests on"
    # A POST that could not open its fresh connection (a busy machine's connect timeout) was not lost to the close.
    case(facts, client, "stale-rst")["gets"] = {"ok": 2}
    case(facts, client, "stale-fin")["posts"] = {"ok": 1, "connect": 1}
    assert cell(tmp_path, facts, client, "stale") == ("POST 1 unconnected", cbb.WANTED)


def test_a_deadline_that_did_not_fire_or_fired_past_the_bound_is_marked(tmp_path, facts):
    client = next(iter(facts["clients"]))
    late = cbb.BOUNDS["deadlineLateMillis"]
    for key in ("deadline-never", "deadline-stall", "deadline-trickle"):
        case(facts, client, key).update(fired=10, requests=10, lateMsP50=5.0, lateMsMax=late, timeoutKind="per-read")
    cell = decided(tmp_path, facts)["clients"][client]["deadline"]
    assert cell["mark"] == cbb.WANTED and cell["text"] == f"per-read +{late / 1000:.1f}s", "the bound itself is in"
    case(facts, client, "deadline-trickle")["lateMsMax"] = late + 1
    assert decided(tmp_path, facts)["clients"][client]["deadline"] == {
        "text": "per-read: trickle >2s", "mark": cbb.NOT_WANTED, "why": cbb.BY_KEY["deadline"].label}
    case(facts, client, "deadline-trickle").update(lateMsMax=None, fired=0)
    case(facts, client, "deadline-stall").update(lateMsMax=None, fired=3)
    assert decided(tmp_path, facts)["clients"][client]["deadline"]["text"] == "per-read: stall,trickle >2s"


def test_each_deadline_cell_names_whose_timeout_it_was(tmp_path, facts):
    # The library's own by its kind, or the suite's timer; one case alone names no case.
    client = next(iter(facts["clients"]))
    case(facts, client, "deadline-suite").update(fired=10, requests=10, lateMsMax=12.0, timeoutKind="suite")
    assert decided(tmp_path, facts)["clients"][client]["suiteDeadline"] == {
        "text": "suite +12ms", "mark": cbb.WANTED, "why": cbb.BY_KEY["suiteDeadline"].label}
    case(facts, client, "deadline-suite").update(fired=0, lateMsMax=None, timeoutKind="headers")
    assert decided(tmp_path, facts)["clients"][client]["suiteDeadline"]["text"] == "headers: >2s"
    for c in decided(tmp_path, facts)["clients"].values():
        for key in ("deadline", "suiteDeadline"):
            assert c[key]["text"].split()[0].rstrip(":") in ("total", "headers", "per-read", "suite"), c[key]


def test_a_run_from_before_a_case_existed_is_earlier_there_not_failed(tmp_path, facts):
    facts["definitions"]["cases"] = [c for c in facts["definitions"]["cases"] if c["key"] != "deadline-suite"]
    for r in facts["clients"].values():
        del r["cases"]["deadline-suite"]
    for cells in decided(tmp_path, facts)["clients"].values():
        assert cells["suiteDeadline"] == {"text": "-", "mark": cbb.EARLIER, "why": "the run predates deadline-suite: not judged"}
        assert cells["deadline"]["mark"] in (cbb.WANTED, cbb.NOT_WANTED)


def test_reuse_is_marked_past_its_bound_of_connections_per_thousand(tmp_path, facts):
    client = next(iter(facts["clients"]))
    f = case(facts, client, "reuse")
    f["failures"] = {}
    f["connectionsPer1000"] = cbb.BOUNDS["connectionsPer1000"]
    assert decided(tmp_path, facts)["clients"][client]["reuse"]["mark"] == cbb.WANTED
    f["connectionsPer1000"] += 1
    assert decided(tmp_path, facts)["clients"][client]["reuse"]["mark"] == cbb.NOT_WANTED
    # Any request lost on the way is a GET lost, by the rule, within the bound of connections too.
    f.update(connectionsPer1000=102, sent=500, failures={"reset": 1})
    assert cell(tmp_path, facts, client, "reuse") == ("102/1k,GET 1/500 lost", cbb.NOT_WANTED)


def test_leaks_pool_slow_host_and_http2_marks_follow_their_counts(tmp_path, facts):
    client = next(iter(facts["clients"]))
    case(facts, client, "timeout-leaks").update(deadConnectionsLeft=1, afterOutcomes={"ok": 64})
    case(facts, client, "default-pool").update(heldAtOnce=63, callers=64, reportedEarly={"rejected": 1})
    case(facts, client, "slow-host").update(fastAfterASlowAnswer=1)
    case(facts, client, "h2-streams").update(failures={"reset": 1}, sent=900, requestSentTwice=0, peakStreams=10,
                                            streamLimit=10)
    case(facts, client, "h2-goaway").update(failures={"reset": 1}, sent=1000, requestSentTwice=2, goAways=1)
    cells = decided(tmp_path, facts)["clients"][client]
    keys = ("leaks", "pool", "slowHost", "h2Streams", "goAway")
    assert [cells[k]["mark"] for k in keys] == [cbb.NOT_WANTED] * 5
    assert [cells[k]["text"] for k in keys] == ["1 left", "63/64,1 refused", "1 wait", "GET 1/900 lost", "GET 1/1000 lost"]
    case(facts, client, "h2-goaway").update(failures={})
    assert cell(tmp_path, facts, client, "goAway") == ("0 failed", cbb.WANTED), "GETs sent again, as the rule asks"
    case(facts, client, "timeout-leaks").update(deadConnectionsLeft=0, afterOutcomes={"ok": 60, "timeout": 4})
    assert decided(tmp_path, facts)["clients"][client]["leaks"] == {
        "text": "0 left,4 fail", "mark": cbb.NOT_WANTED, "why": cbb.BY_KEY["leaks"].label}
    # A timeout that fired 2 s past its deadline is within the bound; 2.001 s is not.
    case(facts, client, "timeout-leaks").update(afterOutcomes={"ok": 64}, lateMsMax=2000.0)
    assert decided(tmp_path, facts)["clients"][client]["leaks"]["mark"] == cbb.WANTED
    case(facts, client, "timeout-leaks").update(lateMsMax=2001.0)
    assert decided(tmp_path, facts)["clients"][client]["leaks"]["text"] == "0 left,+2.0s"
    assert decided(tmp_path, facts)["clients"][client]["leaks"]["mark"] == cbb.NOT_WANTED


def test_bodies_left_open_are_marked_by_what_the_leak_holds_after_a_collection_not_by_a_pools_bound(tmp_path, facts):
    client = next(iter(facts["clients"]))
    f = case(facts, client, "unclosed-body")
    # Reclaimed once collected, with a warning, the ordinary requests passing: no leak left.
    f.update(leftOpenStubReads=70, heldOpen=70, heldAfterCollection=0, leakWarnings=70, afterOutcomes={"ok": 5})
    assert decided(tmp_path, facts)["clients"][client]["unclosed"] == {
        "text": "held 70,0 after GC,warned", "mark": cbb.WANTED, "why": cbb.BY_KEY["unclosed"].label}
    # No bound, every request passing, and 70 connections still held: the leak the old column let pass.
    f.update(heldAfterCollection=70, leakWarnings=0)
    assert cell(tmp_path, facts, client, "unclosed") == ("held 70,70 after GC", cbb.NOT_WANTED)
    # A bounded pool whose slots stay held: the ordinary requests wait, said apart from the leak.
    f.update(leftOpenStubReads=5, heldOpen=5, heldAfterCollection=5, afterOutcomes={"unreported": 5})
    assert cell(tmp_path, facts, client, "unclosed") == ("held 5,5 after GC,5 wait", cbb.NOT_WANTED)
    # A bounded pool that made callers wait while the bodies were held, and reclaimed them: no leak.
    f.update(heldAfterCollection=0, afterOutcomes={"ok": 5})
    assert cell(tmp_path, facts, client, "unclosed") == ("held 5,0 after GC", cbb.WANTED)
    # Nothing held after, yet the ordinary requests refused: the pool's bookkeeping lost its slots.
    f.update(afterOutcomes={"rejected": 5})
    assert cell(tmp_path, facts, client, "unclosed") == ("held 5,0 after GC,5 fail", cbb.NOT_WANTED)


def test_bodies_left_open_the_stub_never_read_are_unreached(tmp_path, facts):
    client = next(iter(facts["clients"]))
    case(facts, client, "unclosed-body").update(leftOpenStubReads=0, heldOpen=0, afterOutcomes={"unreported": 5})
    assert decided(tmp_path, facts)["clients"][client]["unclosed"] == {
        "text": "-", "mark": cbb.NOT_REACHED, "why": "not reached: " + cbb.BY_KEY["unclosed"].label}


def sizes(data, client) -> list:
    return case(data, client, "large-headers")["bySize"]


def test_large_headers_give_the_largest_head_read_and_are_marked_by_the_smallest_failed(tmp_path, facts):
    client = next(iter(facts["clients"]))
    bound = cbb.BOUNDS["headerBytesRead"]
    for s, n in zip(sizes(facts, client), (6144, 12288, 40960)):
        s.update(headerBytes=n, requests=3, stubSent=3, outcomes={"ok": 3})
    assert decided(tmp_path, facts)["clients"][client]["headers"] == {
        "text": "40K", "mark": cbb.WANTED, "why": cbb.BY_KEY["headers"].label}
    # Failing past the bound, at once and saying why, is a clean failure: the cell says where.
    sizes(facts, client)[2]["outcomes"] = {"other": 3}
    assert 40960 > bound
    assert decided(tmp_path, facts)["clients"][client]["headers"] == {
        "text": "<40K", "mark": cbb.WANTED, "why": cbb.BY_KEY["headers"].label}
    # One request of three failed at 12 KiB, within the bound: not wanted.
    sizes(facts, client)[1]["outcomes"] = {"ok": 2, "other": 1}
    assert 12288 <= bound
    assert [decided(tmp_path, facts)["clients"][client]["headers"][k] for k in ("text", "mark")] == ["<12K", cbb.NOT_WANTED]
    # A head at the bound itself must be read.
    sizes(facts, client)[1].update(headerBytes=bound, outcomes={"ok": 3})
    sizes(facts, client)[2]["outcomes"] = {"ok": 3}
    sizes(facts, client)[2]["headerBytes"] = bound + 1024
    sizes(facts, client)[2]["outcomes"] = {"reset": 3}
    assert [decided(tmp_path, facts)["clients"][client]["headers"][k] for k in ("text", "mark")] == ["<17K", cbb.WANTED]
    sizes(facts, client)[1]["outcomes"] = {"ok": 2, "reset": 1}
    assert [decided(tmp_path, facts)["clients"][client]["headers"][k] for k in ("text", "mark")] == ["<16K", cbb.NOT_WANTED]


def test_a_large_head_that_hangs_is_marked_even_past_the_bound_and_an_unsent_one_is_unreached(tmp_path, facts):
    client = next(iter(facts["clients"]))
    for s in sizes(facts, client):
        s.update(requests=3, stubSent=3, outcomes={"ok": 3})
    sizes(facts, client)[-1]["outcomes"] = {"other": 2, "unreported": 1}
    assert decided(tmp_path, facts)["clients"][client]["headers"] == {
        "text": "<40K,hang", "mark": cbb.NOT_WANTED, "why": cbb.BY_KEY["headers"].label}
    sizes(facts, client)[-1]["outcomes"] = {"timeout": 3}
    assert decided(tmp_path, facts)["clients"][client]["headers"]["text"] == "<40K,hang", "its own timer, not a failure"
    sizes(facts, client)[-1].update(outcomes={"connect": 3}, stubSent=0)
    assert decided(tmp_path, facts)["clients"][client]["headers"] == {
        "text": "-", "mark": cbb.NOT_REACHED, "why": "not reached: " + cbb.BY_KEY["headers"].label}


def test_pool_timeouts_are_marked_by_the_librarys_own_timeout_and_the_suites_timer_only_named(tmp_path, facts):
    own, suite = (case(facts, "okhttp", k) for k in ("pool-timeouts", "pool-timeouts-suite"))
    for c in (own, suite):
        c.update(slotsBefore=5, slotsAfter=5, callers=20, afterOutcomes={"ok": 5})
    assert cell(tmp_path, facts, "okhttp", "poolTimeouts") == ("5/5,15 wait", cbb.WANTED)
    # The suite's timer (the adapter's cancel) lost every slot: named, labelled, and the library's mark stands.
    suite.update(slotsAfter=0, afterOutcomes={"timeout": 5})
    assert cell(tmp_path, facts, "okhttp", "poolTimeouts") == ("5/5,15 wait;adapter timer 0/5,5 fail", cbb.WANTED)
    # The library's own timeout lost one slot, though every request after still passed: not wanted.
    own.update(slotsAfter=4)
    assert cell(tmp_path, facts, "okhttp", "poolTimeouts") == ("4/5;adapter timer 0/5,5 fail", cbb.NOT_WANTED)
    own.update(slotsAfter=5, afterOutcomes={"ok": 4, "unreported": 1})
    assert cell(tmp_path, facts, "okhttp", "poolTimeouts") == ("5/5,1 fail;adapter timer 0/5,5 fail", cbb.NOT_WANTED)
    # A pool that never filled (every caller held at once) was not provoked, whatever the adapter's timer did; unless
    # it then lost a slot.
    own.update(slotsBefore=20, slotsAfter=20, afterOutcomes={"ok": 20})
    assert decided(tmp_path, facts)["clients"]["okhttp"]["poolTimeouts"] == {
        "text": "-", "mark": cbb.NOT_REACHED, "why": "not reached: " + cbb.BY_KEY["poolTimeouts"].label}
    own.update(slotsAfter=19)
    assert cell(tmp_path, facts, "okhttp", "poolTimeouts")[1] == cbb.NOT_WANTED


def test_an_http2_case_the_stub_says_never_provoked_its_condition_is_unreached_not_marked(tmp_path, facts):
    client = next(iter(facts["clients"]))
    case(facts, client, "h2-streams").update(failures={"reset": 5}, peakStreams=9, streamLimit=10)
    case(facts, client, "h2-goaway").update(failures={"reset": 5}, goAways=0)
    cells = decided(tmp_path, facts)["clients"][client]
    for key in ("h2Streams", "goAway"):
        assert cells[key] == {"text": "-", "mark": cbb.NOT_REACHED, "why": "not reached: " + cbb.BY_KEY[key].label}
    case(facts, client, "h2-streams").update(failures={}, requestSentTwice=0, peakStreams=10)
    case(facts, client, "h2-goaway").update(failures={}, requestSentTwice=0, goAways=1)
    cells = decided(tmp_path, facts)["clients"][client]
    assert [cells[k]["mark"] for k in ("h2Streams", "goAway")] == [cbb.WANTED] * 2, "the limit itself, one GOAWAY: reached"
    assert cbb.terminal_table(decided(tmp_path, facts)).count(cbb.NOT_REACHED) == 1, "only the heading names it"


def flow(facts, client, part):
    return case(facts, client, "h2-flow")[part]


def test_a_flow_control_stall_or_overrun_is_marked_per_part_and_an_unread_upload_too(tmp_path, facts):
    client = next(iter(facts["clients"]))
    flow(facts, client, "down").update(sent=5, outcomes={"ok": 2, "unreported": 3}, answersUnsent=3)
    flow(facts, client, "up").update(outcomes={"timeout": 3, "reset": 5}, pausedBodies=0, flowControlErrors=5)
    assert decided(tmp_path, facts)["clients"][client]["h2Flow"] == {
        "text": "3 hang/8 fail,8 unread,5 overran", "mark": cbb.NOT_WANTED, "why": cbb.BY_KEY["h2Flow"].label}
    flow(facts, client, "down").update(sent=8, outcomes={"ok": 8})
    flow(facts, client, "up").update(outcomes={"ok": 8}, pausedBodies=7, flowControlErrors=0)
    assert decided(tmp_path, facts)["clients"][client]["h2Flow"]["text"] == "ok/1 unread", "the client's ok is not enough"
    flow(facts, client, "up").update(pausedBodies=8, flowControlErrors=1)
    assert decided(tmp_path, facts)["clients"][client]["h2Flow"]["mark"] == cbb.NOT_WANTED, "an overrun window alone"


def test_a_flow_control_part_never_reached_is_not_judged_and_neither_reached_is_unreached(tmp_path, facts):
    client = next(iter(facts["clients"]))
    flow(facts, client, "down").update(windowUpdatesIn=0, outcomes={"timeout": 8})
    assert decided(tmp_path, facts)["clients"][client]["h2Flow"] == {
        "text": "-/ok", "mark": cbb.WANTED, "why": cbb.BY_KEY["h2Flow"].label}
    flow(facts, client, "up").update(readPauses=0)
    assert decided(tmp_path, facts)["clients"][client]["h2Flow"] == {
        "text": "-", "mark": cbb.NOT_REACHED, "why": "not reached: " + cbb.BY_KEY["h2Flow"].label}


def forget_reuse_revision(facts):
    """As a run from before revisions were recorded: neither its definitions nor its clients' results name one."""
    for c in facts["definitions"]["cases"]:
        if c["key"] == "reuse":
            del c["revision"]
    for r in facts["clients"].values():
        r["cases"]["reuse"].pop("revision", None)


def test_a_held_handshake_is_marked_by_the_latest_request_and_unreached_when_none_was_held(tmp_path, facts):
    client = next(iter(facts["clients"]))
    f = case(facts, client, "tls-stall")
    late = cbb.BOUNDS["deadlineLateMillis"]
    f["timeoutKind"] = "per-read"
    f["stall"].update(ended=f["requests"], lateMsMax=late, helloes=5, stubReads=0)
    f["trickle"].update(ended=f["requests"], lateMsMax=12.0, helloes=1, stubReads=0)
    assert decided(tmp_path, facts)["clients"][client]["tlsStall"] == {
        "text": f"per-read +{late / 1000:.1f}s", "mark": cbb.WANTED, "why": cbb.BY_KEY["tlsStall"].label}, "the bound is in"
    f["stall"]["lateMsMax"] = late + 1
    assert [decided(tmp_path, facts)["clients"][client]["tlsStall"][k] for k in ("text", "mark")] == [
        "per-read: stall >2s", cbb.NOT_WANTED]
    f["trickle"].update(ended=f["requests"] - 1)  # one still in its handshake at the end of the wait
    assert decided(tmp_path, facts)["clients"][client]["tlsStall"]["text"] == "per-read: stall,trickle >2s"
    f["trickle"]["stubReads"] = 1  # a handshake completed: the trickle held nothing
    assert decided(tmp_path, facts)["clients"][client]["tlsStall"]["mark"] == cbb.NOT_REACHED
    f["trickle"]["stubReads"], f["stall"]["helloes"] = 0, 0
    assert decided(tmp_path, facts)["clients"][client]["tlsStall"]["mark"] == cbb.NOT_REACHED


def test_a_case_measured_by_an_earlier_revision_is_shown_as_such_not_judged(tmp_path, facts):
    # A run from before reuse left bodies unread recorded no revision (1); today's reuse is revision 2.
    assert cbb.REVISIONS["reuse"] == 2
    assert set(cbb.REVISIONS) <= {c["key"] for c in facts["definitions"]["cases"]}, "each revision names a case"
    forget_reuse_revision(facts)
    b = decided(tmp_path, facts)
    for client, cells in b["clients"].items():
        assert cells["reuse"]["mark"] == cbb.EARLIER, (client, cells["reuse"])
        assert "revision 1 of reuse, now 2" in cells["reuse"]["why"]
        assert cells["stale"]["mark"] in (cbb.WANTED, cbb.NOT_WANTED), "a case at today's revision is judged"
    assert max(map(len, cbb.terminal_table(b).splitlines())) <= 118


def test_a_client_that_could_not_run_is_failed_in_every_column_with_why(tmp_path, facts):
    client = next(iter(facts["clients"]))
    facts["clients"][client] = {"ok": False, "failure": "killed after 120 s, its bound", "pid": 1, "wallMs": 1,
                                "cases": {}}
    cells = decided(tmp_path, facts)["clients"][client]
    assert {c["mark"] for c in cells.values()} == {cbb.NOT_RUN}
    assert {c["why"] for c in cells.values()} == {"killed after 120 s, its bound"}


def test_a_case_the_client_cannot_take_is_not_applicable_and_a_failed_case_is_failed(tmp_path, facts):
    client = next(iter(facts["clients"]))
    facts["clients"][client]["cases"]["h2-goaway"] = {"tuning": "as-shipped", "wallMs": 1, "figures": None,
                                                      "notApplicable": "no HTTP/2", "failure": None, "settings": None}
    facts["clients"][client]["cases"]["reuse"] = {"tuning": "as-shipped", "wallMs": 1, "figures": None,
                                                  "notApplicable": None, "failure": "java.lang.Error: x", "settings": None}
    cells = decided(tmp_path, facts)["clients"][client]
    assert cells["goAway"] == {"text": "n/a", "mark": cbb.NOT_APPLICABLE, "why": "no HTTP/2"}
    assert cells["reuse"] == {"text": "-", "mark": cbb.NOT_RUN, "why": "java.lang.Error: x"}


def test_the_terminal_table_fits_and_names_each_mark(facts, tmp_path):
    b = decided(tmp_path, facts)
    lines = cbb.terminal_table(b).splitlines()
    assert max(map(len, lines)) <= 118
    head = next(i for i, line in enumerate(lines) if not line.startswith(("behaviour as shipped", "  ")))  # the legend
    assert lines[head].split()[0] == "client"
    shown = [a for a in cbb.ASPECTS if a.heading in lines[head]]
    left = [a.heading for a in cbb.ASPECTS if a not in shown]
    assert len(shown) >= 4, "the first four columns fit; the NO line above the table names every column's NO cells"
    rest = lines[head + 1 + len(facts["clients"]):]
    assert bool(rest) == bool(left)
    if left:
        assert " ".join(line.strip() for line in rest) == "in the report only: " + ", ".join(left)
    for client, row in zip(facts["clients"], lines[head + 1:]):
        assert row.startswith(client)
        assert sum(row.count(m) for m in (f" {cbb.WANTED}", f" {cbb.NOT_WANTED}", cbb.NOT_APPLICABLE, cbb.NOT_REACHED)) \
            == len(shown)


def test_the_verdict_summary_results_csv_and_terminal_carry_the_table_once(tmp_path):
    run_dir = tmp_path / "run"
    shutil.copytree(RUN, run_dir)
    shutil.copy(FIXTURE, run_dir / cbb.FILE)
    for _ in range(2):  # deciding again replaces, never duplicates
        run = cbl.load_run(run_dir)
        v = cbd.verdict(run)
        cbd.write(run, v)
        est.write_csv(run, v)
    summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    assert summary["verdict"]["behaviour"]["clients"].keys() == set(run.clients) & set(json.loads(FIXTURE.read_text())["clients"])
    rows = [r for r in csv.DictReader((run_dir / "results.csv").open(encoding="utf-8")) if r["shape"] == cbd.BEHAVIOUR_ROW]
    assert sorted(r["client"] for r in rows) == sorted(summary["verdict"]["behaviour"]["clients"])
    for r in rows:
        cells = summary["verdict"]["behaviour"]["clients"][r["client"]]
        assert {a.key: r[f"mark.{a.key}"] for a in cbb.ASPECTS} == {k: c["mark"] for k, c in cells.items()}
        assert r["run"] == run.name
    # The terminal's rows, cell by cell as worked out by hand, in the columns it has room for.
    text = cbd.terminal_verdict(run, summary["verdict"]).splitlines()
    legend = next(i for i, line in enumerate(text) if line.startswith("behaviour as shipped"))
    table = text[next(i for i in range(legend + 1, len(text)) if text[i].startswith("client ")):]
    heading = table[0]
    shown = [a.key for a in cbb.ASPECTS if a.heading in heading]
    assert shown == [a.key for a in cbb.ASPECTS][:len(shown)] and len(shown) >= 4, heading
    assert heading.split() == ["client"] + " ".join(a.heading for a in cbb.ASPECTS[:len(shown)]).split()
    clients = sorted(summary["verdict"]["behaviour"]["clients"])
    assert sorted(line.split()[0] for line in table[1:1 + len(clients)]) == clients
    for client in clients:
        row = next(line for line in table[1:] if line.startswith(client + " "))
        cells = [f"{BY_HAND[client][k][0]} {BY_HAND[client][k][1]}" for k in shown]
        assert row.split() == [client] + " ".join(cells).split(), row
    # Above the table, each client's NO cells by heading, as the hand-worked table has them: README's excerpt shows it.
    start = next(i for i, line in enumerate(text) if line.startswith("behaviour, NO "))
    said = " ".join(line.strip() for line in text[start:text.index("", start)])
    for client in clients:
        no = [a.heading for a in cbb.ASPECTS if BY_HAND[client][a.key][1] == "NO"]  # in the table's order
        assert (f"{client}: {', '.join(no)}" in said) if no else (client in said.split("none for ")[-1]), (client, said)


def test_marks_of_a_run_without_behaviour_are_none(tmp_path):
    assert cbb.decide(tmp_path) is None
    assert cbb.main(["analysis/decide/behaviour.py", str(tmp_path)]) == 1


# Each cell of the fixture as worked out by hand from its figures, the rule and thresholds.json's behaviour bounds (late
# by at most 2,000 ms, 110 connections per 1,000, no dead connection, no failure after timeouts, no fast wait, every head
# up to 16 KiB read, no connection held after the collection).
BY_HAND = {
    "jdk": {"stale": ("0 failed", "ok"), "race": ("POST 2/2 fail", "ok"), "closedSeen": ("0 failed", "ok"),
            "closedAtOnce": ("POST 15/500 fail", "ok"), "deadline": ("headers +267ms", "ok"),
            "suiteDeadline": ("headers: >2s", "NO"), "leaks": ("0 left", "ok"), "poolTimeouts": ("-", "unreached"),
            "reuse": ("502/1k", "NO"), "unclosed": ("held 70,70 after GC", "NO"), "pool": ("64/64", "ok"),
            "slowHost": ("53 wait", "NO"), "headers": ("-", "unreached"), "tlsStall": ("headers +61ms", "ok"),
            "h2Streams": ("GET 823/900 lost", "NO"), "goAway": ("GET 36/1000 lost", "NO"), "h2Flow": ("ok/ok", "ok")},
    "okhttp": {"stale": ("POST 2/4 x2,4 on closed", "NO"), "race": ("POST 2/2 x2", "NO"),
               "closedSeen": ("POST 5/5 x2,10 on closed", "NO"), "closedAtOnce": ("POST 500/500 x2", "NO"),
               "deadline": ("total +327ms", "ok"), "suiteDeadline": ("total +100ms", "ok"),
               "leaks": ("0 left,+7.1s", "NO"), "poolTimeouts": ("5/5,15 wait", "ok"), "reuse": ("102/1k", "ok"),
               "unclosed": ("held 37,70 after GC", "NO"), "pool": ("5/64", "NO"), "slowHost": ("100 wait", "NO"),
               "headers": ("40K", "ok"), "tlsStall": ("total +460ms", "ok"), "h2Streams": ("0 failed", "ok"),
               "goAway": ("0 failed", "ok"), "h2Flow": ("ok/ok", "ok")},
    "vertx": {"stale": ("0 failed", "ok"), "race": ("GET 2/2 lost", "NO"), "closedSeen": ("0 failed", "ok"),
              "closedAtOnce": ("GET 205/500 lost", "NO"), "deadline": ("headers: stall,trickle >2s", "NO"),
              "suiteDeadline": ("suite +9ms", "ok"), "leaks": ("0 left", "ok"), "poolTimeouts": ("5/5,15 wait", "ok"),
              "reuse": ("102/1k", "ok"), "unclosed": ("held 5,5 after GC,5 wait", "NO"), "pool": ("5/64", "NO"),
              "slowHost": ("99 wait", "NO"), "headers": ("<12K", "NO"), "tlsStall": ("headers +149ms", "ok"),
              "h2Streams": ("0 failed", "ok"), "goAway": ("GET 97/1000 lost", "NO"), "h2Flow": ("ok/ok", "ok")},
}


def test_every_cell_of_the_fixture_is_as_worked_out_by_hand(tmp_path, facts):
    b = decided(tmp_path, facts)
    assert cbb.marks(b) == {c: {k: mark for k, (_, mark) in cells.items()} for c, cells in BY_HAND.items()}
    assert {c: {k: x["text"] for k, x in cells.items()} for c, cells in b["clients"].items()} == \
        {c: {k: text for k, (text, _) in cells.items()} for c, cells in BY_HAND.items()}
    assert b["wanted"] == {c: sum(mark == "ok" for _, mark in cells.values()) for c, cells in BY_HAND.items()}


def test_the_first_screen_names_each_clients_no_cells(tmp_path, facts):
    from analysis.report import tables as cbt
    b = decided(tmp_path, facts)
    line = cbt.behaviour_line_html({"behaviour": b})
    for client, cells in BY_HAND.items():  # counted against the hand-worked table, not the code's own list
        no = [a.heading for a in cbb.ASPECTS if cells[a.key][1] == "NO"]  # in the table's order
        assert (f"{client}: {', '.join(no)}" in line) if no else (client in line.split("none for ")[-1]), (client, line)
    assert cbt.behaviour_line_html({"behaviour": None}) == ""
    assert "not judged" not in line, "every case of the fixture ran at today's revision"
    forget_reuse_revision(facts)
    assert "not judged for some clients (not run, or an earlier revision): reuse." in \
        cbt.behaviour_line_html({"behaviour": decided(tmp_path, facts)})


def two_versions(facts, client="okhttp") -> dict:
    """behaviour.json of an upgrade: one client's results twice, as its old and its new version."""
    data = copy.deepcopy(facts)
    one = data["clients"][client]
    data["clients"] = {"okhttp@5.4.0": copy.deepcopy(one), "okhttp@5.5.1": copy.deepcopy(one)}
    return data


def changed(tmp_path, data) -> dict:
    return cbb.changes(decided(tmp_path, data), "okhttp@5.4.0", "okhttp@5.5.1")


def test_an_upgrade_names_the_cells_it_fixed_and_broke_and_counts_the_rest(tmp_path, facts):
    data = two_versions(facts)
    old, new = (data["clients"][v]["cases"] for v in ("okhttp@5.4.0", "okhttp@5.5.1"))
    old["stale-race"]["figures"]["postSentTwice"], new["stale-race"]["figures"]["postSentTwice"] = 1, 0
    new["reuse"]["figures"]["connectionsPer1000"] = 502
    c = changed(tmp_path, data)
    assert [(r["heading"], r["change"]) for r in c["changed"]] == [("idle race", cbb.FIXED), ("reuse", cbb.BROKEN)]
    assert c["counts"] == {cbb.FIXED: 1, cbb.BROKEN: 1, cbb.CHANGED: 0, cbb.NOT_COMPARED: 0,
                           "unchanged": len(cbb.ASPECTS) - 2}
    fixed = c["changed"][0]
    assert (fixed["old"]["text"], fixed["old"]["mark"], fixed["new"]["mark"]) == ("POST 1/2 x2", cbb.NOT_WANTED, cbb.WANTED)
    lines = cbb.change_lines(c, 12)
    assert lines[0].startswith(f"behaviour: 1 fixed, 1 broken of {len(cbb.ASPECTS)} cells (12 cases")
    assert lines[1].split() == ["fixed", "idle", "race", "POST", "1/2", "x2", "NO", "->", "0", "failed", "ok", "(within",
                                "chance)"], "1 of 2 sent twice against none: a mark on a count that turns by chance"
    assert lines[2].split() == ["broken", "reuse", "102/1k", "ok", "->", "502/1k", "NO"], "the counts beside the marks"


def test_counts_that_differ_under_the_same_mark_change_no_cell(tmp_path, facts):
    # Two JVMs of one version: how many streams a GOAWAY caught is a race, its mark stays.
    data = two_versions(facts)
    goaway = [data["clients"][v]["cases"]["h2-goaway"]["figures"] for v in data["clients"]]
    goaway[0]["failures"], goaway[1]["failures"] = {"reset": 47}, {"reset": 46}
    c = changed(tmp_path, data)
    assert c["changed"] == [] and c["counts"]["unchanged"] == len(cbb.ASPECTS)
    assert cbb.change_lines(c, 12) == [f"behaviour: no behaviour cell changed (12 cases, {len(cbb.ASPECTS)} cells)"]


def test_a_cell_neither_version_measured_today_is_not_compared_nor_unchanged(tmp_path, facts):
    # Both versions ran a run's cases before the large-headers case existed: that cell is earlier in both.
    data = two_versions(facts)
    data["definitions"]["cases"] = [c for c in data["definitions"]["cases"] if c["key"] != "large-headers"]
    for r in data["clients"].values():
        r["cases"].pop("large-headers", None)
    c = changed(tmp_path, data)
    assert c["changed"] == [] and c["counts"][cbb.NOT_COMPARED] == 1
    assert c["counts"]["unchanged"] == len(cbb.ASPECTS) - 1
    assert cbb.change_lines(c, 12) == [f"behaviour: no behaviour cell changed (12 cases, {len(cbb.ASPECTS) - 1} "
                                       "cells; 1 not compared: neither version ran today's revision of its case)"]


def test_a_case_missing_from_one_version_is_a_change_said_as_such_not_a_fix(tmp_path, facts):
    data = two_versions(facts)
    old = data["clients"]["okhttp@5.4.0"]["cases"]
    del data["clients"]["okhttp@5.5.1"]["cases"]["slow-host"]  # NO in the fixture's okhttp
    old["default-pool"]["failure"], old["default-pool"]["figures"] = "java.lang.IllegalStateException: x", None
    c = changed(tmp_path, data)
    assert [(r["heading"], r["change"], r["old"]["mark"], r["new"]["mark"]) for r in c["changed"]] == [
        ("default pool", cbb.CHANGED, cbb.NOT_RUN, cbb.NOT_WANTED),
        ("slow host", cbb.CHANGED, cbb.NOT_WANTED, cbb.NOT_RUN)]
    assert c["counts"][cbb.FIXED] == 0 and c["counts"][cbb.CHANGED] == 2
    lines = cbb.change_lines(c, 12)
    assert lines[0].startswith("behaviour: 2 changed of")
    assert lines[2].split()[:6] == ["changed", "slow", "host", "100", "wait", "NO"] and "the case did not run" in lines[2]


def test_a_case_one_version_ran_at_an_earlier_revision_is_not_compared(tmp_path, facts):
    data = two_versions(facts)
    new = data["clients"]["okhttp@5.5.1"]["cases"]
    for key, case_ in new.items():
        case_["revision"] = cbb.REVISIONS.get(key, 1)  # what the JVM says its jar ran; the old one says nothing
    new["reuse"]["revision"] = 1  # today's reuse is revision 2: its figures meant something else
    new["reuse"]["figures"]["connectionsPer1000"] = 502
    assert cbb.revisions(data, "okhttp@5.5.1")["reuse"] == 1 and cbb.revisions(data, "okhttp@5.4.0")["reuse"] == 2
    c = changed(tmp_path, data)
    assert [(r["heading"], r["change"], r["new"]["mark"]) for r in c["changed"]] == [
        ("reuse", cbb.NOT_COMPARED, cbb.EARLIER)], "a count at another revision is neither fixed nor broken"
    assert "revision 1 of reuse, now 2" in cbb.change_lines(c, 12)[1]


def _h2_streams(data, client, lost):
    f = case(data, client, "h2-streams")
    f.update(outcomes={"ok": 900 - lost, **({"reset": lost} if lost else {})}, failures={"reset": lost} if lost else {},
             sent=900, requestSentTwice=0, peakStreams=10, streamLimit=10)


@pytest.mark.parametrize("old_lost, new_lost, change, beyond", [(0, 1, cbb.BROKEN, False), (0, 3, cbb.BROKEN, False),
                                                             (0, 30, cbb.BROKEN, True), (30, 0, cbb.FIXED, True)])
def test_a_cell_turned_on_a_count_is_judged_beyond_chance_by_both_versions_counts(tmp_path, facts, old_lost, new_lost,
                                                                                   change, beyond):
    # HTTP/2 GETs refused and lost of 900, the old version's against the new's: one lost of 900 turns a mark between two
    # JVMs of one OkHttp; thirty do not.
    _h2_streams(facts, "jdk", old_lost)
    _h2_streams(facts, "okhttp", new_lost)
    b = decided(tmp_path, facts)
    assert b["clients"]["okhttp"]["h2Streams"]["events"] == {"bad": new_lost, "of": 900}
    row = next(r for r in cbb.changes(b, "jdk", "okhttp")["changed"] if r["aspect"] == "h2Streams")
    assert (row["change"], row["beyondChance"]) == (change, beyond)


def test_reuse_counts_connections_opened_and_a_cell_without_a_count_turns_as_a_fact(tmp_path, facts):
    f = case(facts, "okhttp", "reuse")
    f.update(sent=1000, connectionsPer1000=138, failures={})
    g = case(facts, "jdk", "reuse")
    g.update(sent=1000, connectionsPer1000=108, failures={})
    b = decided(tmp_path, facts)
    assert b["clients"]["okhttp"]["reuse"]["events"] == {"bad": 138, "of": 1000}
    row = next(r for r in cbb.changes(b, "jdk", "okhttp")["changed"] if r["aspect"] == "reuse")
    assert row["change"] == cbb.BROKEN and row["beyondChance"] is False, "108 and 138 per 1,000: within chance"
    assert "events" not in b["clients"]["okhttp"]["pool"], "a pool's bound is no count of requests"
    assert cbb.beyond_chance({"mark": cbb.WANTED, "text": "5/5"}, {"mark": cbb.NOT_WANTED, "text": "2/5"}, 17)
