-- The "sunset" widget palette's primary colour is darker (#e0562b → #c4471f): white text on it was 3.8:1, below
-- WCAG 2.1 AA's 4.5:1. Sparks that picked it keep the palette with the new shade; a colour set otherwise is left alone.
UPDATE "sparks"
SET "options" = jsonb_set("options", '{theme,palette,primary}', '"#c4471f"')
WHERE "options" #>> '{theme,palette,name}' = 'sunset'
  AND "options" #>> '{theme,palette,primary}' = '#e0562b';
