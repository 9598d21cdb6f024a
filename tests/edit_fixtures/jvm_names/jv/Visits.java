package jv;

import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;

/** A Spring MVC controller: the framework calls its handlers and chooses their arguments. */
public class Visits {
    @ModelAttribute("types")
    List<String> populateTypes() {
        return List.of("cat", "dog");
    }

    @GetMapping("/visits/new")
    String initNewVisitForm(Map<String, Object> model) {
        model.put("types", populateTypes());
        return "visits/new";
    }

    String list() {
        return view();
    }

    private String view() {
        return "visits/list";
    }
}
