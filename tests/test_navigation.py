"""Navigation: the page registry, the sidebar, deep links and large type (AppTest)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.source_util import page_icon_and_name

import lessons
from tests.apptest_helpers import ROOT, run_page
from ui.layout import APP_NAME, LARGE_TYPE_CSS_MARKER, LARGE_TYPE_KEY, PAGES, PageEntry, sections

PAGE_IDS = [entry.path for entry in PAGES]


def _expected_heading(entry: PageEntry) -> str:
    return APP_NAME if entry.path == "app.py" else entry.title


# --- The registry and the files agree ----------------------------------------


def test_home_is_first_and_in_start_section() -> None:
    assert PAGES[0].path == "app.py"
    assert PAGES[0].section == "Start"


def test_every_registered_file_exists() -> None:
    missing = [entry.path for entry in PAGES if not (ROOT / entry.path).is_file()]
    assert not missing, f"registered in ui.layout.PAGES but no file: {missing}"


def test_every_page_file_is_registered() -> None:
    on_disk = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "pages").glob("*.py")
        if path.name != "__init__.py" and not path.name.startswith(".")
    }
    registered = {entry.path for entry in PAGES}
    assert on_disk - registered == set(), "add these to ui.layout.PAGES"


def test_titles_paths_and_url_paths_are_unique() -> None:
    for attr in ("path", "title", "url_path"):
        values = [getattr(entry, attr) for entry in PAGES]
        assert len(values) == len(set(values)), f"duplicate {attr}: {values}"


def test_url_path_matches_streamlit_rule() -> None:
    # Streamlit's own pages-folder naming decides the deep link; ours must agree.
    for entry in PAGES[1:]:
        _, name = page_icon_and_name(ROOT / entry.path)
        assert entry.url_path == name
    assert PAGES[1].url_path == "Train_step_by_step"


def test_icons_are_material_shortcodes() -> None:
    from streamlit.material_icon_names import ALL_MATERIAL_ICONS

    for entry in PAGES:
        assert entry.icon.startswith(":material/") and entry.icon.endswith(":"), entry
        assert entry.icon[len(":material/") : -1] in ALL_MATERIAL_ICONS, entry


def test_sections_keep_registry_order() -> None:
    names = [name for name, _ in sections()]
    assert names[:2] == ["Start", "Core labs"]
    flattened = [entry for _, entries in sections() for entry in entries]
    # A section's pages sit together in the registry, so grouping keeps order.
    assert flattened == list(PAGES)


# --- Every page runs, shows its heading and the full sidebar -----------------


@pytest.mark.parametrize("entry", PAGES, ids=PAGE_IDS)
def test_page_runs_with_sidebar(entry: PageEntry) -> None:
    at = run_page(entry.path)
    assert [t.value for t in at.main.get("title")][:1] == [_expected_heading(entry)]

    sidebar_links = [el for el in at.sidebar.get("page_link")]
    assert [link.proto.label for link in sidebar_links] == [e.title for e in PAGES]
    assert [link.proto.page for link in sidebar_links] == [e.url_path for e in PAGES]
    section_labels = [c.value for c in at.sidebar.get("caption")]
    assert section_labels == [f"**{name.upper()}**" for name, _ in sections()]

    # A rerun stays on the same page (the pages/ mechanism is rerun-safe).
    at.run()
    assert not at.exception
    assert [t.value for t in at.main.get("title")][:1] == [_expected_heading(entry)]
    assert len(at.sidebar.get("page_link")) == len(PAGES)


def test_home_links_to_every_lab() -> None:
    at = run_page("app.py")
    main_links = {link.proto.label.strip("*"): link.proto.page for link in at.main.get("page_link")}
    labs = {e.title: e.url_path for e in PAGES if e.path != "app.py"}
    assert main_links == labs


def test_home_marks_planned_labs_as_coming() -> None:
    """Planned labs (``[[coming]]`` in lessons/examples.toml) are marked on the home page, and a built page
    is never among them: with every planned lab built, the home page lists none."""
    at = run_page("app.py")
    text = "\n".join(str(m.value) for m in at.main.get("markdown"))
    coming = lessons.examples("coming")
    for item in coming:
        line = next(line for line in text.splitlines() if item["name"] in line)
        assert "Coming soon" in line
    assert text.count("Coming soon") == len(coming)
    built = {e.title for e in PAGES}
    assert not built & {item["name"] for item in coming}, "a built page is still listed as coming"


def test_switching_pages_keeps_the_sidebar() -> None:
    at = run_page("app.py")
    for entry in PAGES[1:] + PAGES[:1]:
        at.switch_page(entry.path).run()
        assert not at.exception
        assert at.main.get("title")[0].value == _expected_heading(entry)
        assert len(at.sidebar.get("page_link")) == len(PAGES)


# --- Large type ----------------------------------------------------------------


def _css_injected(at) -> bool:
    return any(LARGE_TYPE_CSS_MARKER in str(h.value) for h in at.html)


def test_large_type_is_off_by_default() -> None:
    at = run_page("app.py")
    assert at.toggle(key=LARGE_TYPE_KEY).value is False
    assert "large" not in at.query_params
    assert not _css_injected(at)


def test_large_type_toggle_sets_url_and_persists_across_pages() -> None:
    at = run_page("app.py")
    assert {link.proto.query_string for link in at.sidebar.get("page_link")} == {""}
    at.toggle(key=LARGE_TYPE_KEY).set_value(True).run()
    assert at.query_params.get("large") == "1"
    assert _css_injected(at)
    # Every link (sidebar and home cards) carries it, so a click keeps it.
    assert {link.proto.query_string for link in at.page_link} == {"large=1"}

    # Move to another page: the page link drops query params, page_setup puts it back.
    at.query_params.clear()
    at.switch_page(PAGES[1].path).run()
    assert at.toggle(key=LARGE_TYPE_KEY).value is True
    assert at.query_params.get("large") == "1"
    assert _css_injected(at)

    # ... and back, then off again.
    at.switch_page("app.py").run()
    assert at.toggle(key=LARGE_TYPE_KEY).value is True
    at.toggle(key=LARGE_TYPE_KEY).set_value(False).run()
    assert "large" not in at.query_params
    assert not _css_injected(at)
    at.switch_page(PAGES[2].path).run()
    assert at.toggle(key=LARGE_TYPE_KEY).value is False
    assert not _css_injected(at)


@pytest.mark.parametrize("entry", [PAGES[0], PAGES[-1]], ids=lambda e: e.path)
def test_shared_link_with_large_1_opens_in_large_type(entry: PageEntry) -> None:
    at = run_page(entry.path, query_params={"large": "1"})
    assert at.toggle(key=LARGE_TYPE_KEY).value is True
    assert _css_injected(at)
    at.run()
    assert at.toggle(key=LARGE_TYPE_KEY).value is True


def test_run_page_rejects_unknown_file() -> None:
    with pytest.raises(FileNotFoundError):
        run_page("pages/9_Nope.py")


def test_pages_folder_has_no_navigation_call() -> None:
    # st.navigation next to a pages/ folder breaks deep links and AppTest reruns.
    for path in [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "ui").glob("*.py"))]:
        source = Path(path).read_text(encoding="utf-8")
        assert "st.navigation(" not in source, path


def test_every_lab_has_a_card_on_the_home_page() -> None:
    at = run_page("app.py")
    captions = [str(c.value) for c in at.main.get("caption")]
    for entry in PAGES[1:]:
        assert entry.blurb, f"{entry.title} needs a blurb in ui.layout.PAGES"
        assert entry.blurb in captions


@pytest.mark.parametrize("entry", [e for e in PAGES if e.path.startswith("pages/") and e.section != "Lessons"],
                         ids=lambda e: e.title)  # the Lessons section (Lessons, Class) holds no lab
def test_every_lab_links_to_its_lesson_and_back(entry: PageEntry) -> None:
    """Each lab names the lesson it belongs to (a link into the Lessons page), and that lesson's try links, or
    another lesson's, lead back to the lab."""
    from lessons.course import course

    at = run_page(entry.path)
    to_lessons = [link.proto for link in at.main.get("page_link") if link.proto.label.startswith("In the lessons")]
    assert to_lessons, f"{entry.title} links to no lesson"
    page_name = entry.url_path
    linked_back = {lesson.id for lesson in course().lessons for t in lesson.tries if t.page == page_name}
    assert linked_back, f"no lesson's try links lead to {entry.title}"
